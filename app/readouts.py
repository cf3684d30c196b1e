"""The readouts as HTML for the first frame: the Python twin of static/readouts.mjs, which draws every later one.

Both must write the same HTML for the same state; tests/browser/test_parity.py compares them on every case of
the shared fixture. Numbers are rounded the way JavaScript's toFixed/toExponential round them (the exact
binary value, ties away from zero), not Python's ties-to-even, so 0.125 shows as 0.13 in both.
"""

import html
import math
from decimal import ROUND_HALF_UP, Decimal


def to_fixed(x, digits):
    """JavaScript's x.toFixed(digits) for |x| < 1e21.

    >>> to_fixed(0.125, 2), to_fixed(-0.625, 2), to_fixed(2.0, 3), to_fixed(-0.0, 1)
    ('0.13', '-0.63', '2.000', '0.0')
    """
    return str(Decimal(x + 0.0).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def to_exponential(x, digits):
    """JavaScript's x.toExponential(digits) as (mantissa, exponent), for finite x ≠ 0.

    >>> to_exponential(1.5e-17, 2), to_exponential(-123456.0, 2), to_exponential(9.995e-5, 2)
    (('1.50', -17), ('-1.23', 5), ('1.00', -4))
    """
    d = Decimal(x)
    e = d.adjusted()
    m = d.scaleb(-e).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    if abs(m) >= 10:
        e += 1
        m = d.scaleb(-e).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return str(m), e


def _minus(s):
    return "\u2212" + s[1:] if s.startswith("-") else s


def _scientific(mantissa, exponent):
    e = _minus(str(exponent)) if abs(exponent) < 1e6 else fmt(float(exponent))
    return f"{_minus(mantissa)}×10<sup>{e}</sup>"


def fmt(x, digits=3):
    """A number as people read it: 3 decimals from 0.001 to 10^6, m×10^e outside, and 0 as 0.000.

    >>> fmt(0.41703), fmt(-2.5), fmt(1.5e-17), fmt(0.0)
    ('0.417', '−2.500', '1.50×10<sup>−17</sup>', '0.000')
    """
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else "\u2212∞"
    if x == 0 or 1e-3 <= abs(x) < 1e6:
        return _minus(to_fixed(x, digits))
    return _scientific(*to_exponential(x, 2))


def fmt_exp(u):
    """e^u without overflow or underflow, through log10 once e^u leaves the range of a double.

    >>> fmt_exp(2.0), fmt_exp(1000.0)
    ('7.389', '1.97×10<sup>434</sup>')
    """
    if abs(u) < 700 or not math.isfinite(u):
        return fmt(math.exp(u))
    lg = u / math.log(10)
    e = math.floor(lg)
    m = to_fixed(10 ** (lg - e), 2)
    if m == "10.00":
        m, e = "1.00", e + 1
    return _scientific(m, e)


def fmt_prob(p, log_p):
    """A probability, from its log when it underflows to 0: p = e^−20000 is tiny, not zero.

    >>> fmt_prob(0.0, -20000.0)
    '1.29×10<sup>−8686</sup>'
    """
    return fmt_exp(log_p) if p == 0 and log_p > -math.inf else fmt(p)


def _fmt_loss(x, unit):
    """The loss with three decimals, and its exact size beside it when that rounds to 0.000."""
    tiny = f' <span class="aside">({fmt(x)})</span>' if 0 < x < 5e-4 else ""
    return f"{_minus(to_fixed(x, 3))} {unit}{tiny}"


def _row(cells, tag, cls=""):
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def escape_html(s):
    """A class name as text, never markup (the same five escapes as the JavaScript twin)."""
    return html.escape(str(s), quote=True).replace("&#x27;", "&#39;")


def render_readouts(s, t):
    """Every readout's HTML for one state s (names, z, T, y, p, log_p, g, loss, entropy_bits, lse); t = strings."""
    K = len(s["z"])
    names = [escape_html(n) for n in s["names"]]
    y, T = s["y"], s["T"]
    head = _row([t["col_class"], "z", "e<sup>z/T</sup>", t["col_prob"], t["col_arrow"]], "th")
    body = "".join(
        _row([names[k], fmt(z), fmt_exp(z / T), fmt_prob(s["p"][k], s["log_p"][k]), fmt(s["g"][k])], "td",
             "true" if k == y else "")
        for k, z in enumerate(s["z"]))
    g_sum = 0.0
    for g in s["g"]:  # left to right, as the browser sums, so both round alike
        g_sum += g
    # Σ(y − p)/T is 0 in exact arithmetic; what remains is rounding in the last bits of the p_k, which a
    # learner would misread as a real imbalance of the arrows.
    if abs(g_sum) < 1e-9:
        g_sum = 0.0
    zmax = max(s["z"]) / T
    loss, lse, py = s["loss"], s["lse"], fmt_prob(s["p"][y], s["log_p"][y])
    return {
        "probs": f"<table>{head}{body}</table>",
        "loss": f'<span class="label">{t["loss"]}</span>'
                f' <span class="value">{_fmt_loss(loss, t["nats"])}</span>'
                f' <span class="aside">= {_fmt_loss(loss / math.log(2), t["bits"])}</span>',
        "entropy": f'<span class="label">{t["entropy"]}</span>'
                   f' <span class="value">{fmt(s["entropy_bits"])} {t["bits"]}</span>'
                   f' <span class="aside">≤ {t["entropy_max"]} = {fmt(math.log2(K))} {t["bits"]}</span>',
        "lse": f'<span class="label">{t["lse"]}</span> <span class="value">{fmt(lse)}</span>'
               f' <span class="aside">{fmt(zmax)} ≤ {fmt(lse)} ≤ {fmt(zmax + math.log(K))}</span>',
        "arrows": f'<span class="label">{t["arrow_sum"]}</span> <span class="value">{fmt(g_sum)}</span>',
        "formula": f'<span class="label">{t["formula"]}</span> '
                   f'p<sub>{names[y]}</sub> = <span class="frac"><span>e<sup>z<sub>{names[y]}</sub>/T</sup></span>'
                   f"<span>Σ<sub>k</sub> e<sup>z<sub>k</sub>/T</sup></span></span> = "
                   f'<span class="frac"><span>{fmt_exp(s["z"][y] / T)}</span><span>{fmt_exp(lse)}</span></span>'
                   f' = <span class="value">{py}</span>',
    }
