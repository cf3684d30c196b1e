"""The readouts as HTML for the first frame: the Python twin of static/readouts.mjs, which draws every later one.

Both must write the same text for the same state; a browser test compares them.
"""

import html
import math


def _minus(s):
    return "\u2212" + s[1:] if s.startswith("-") else s


def _scientific(mantissa, exponent):
    return f"{_minus(mantissa)}×10<sup>{_minus(str(exponent))}</sup>"


def fmt(x, digits=3):
    """A number as people read it: 3 decimals between 0.001 and 10^6, else m×10^e, and 0 exactly as 0.

    >>> fmt(0.41703), fmt(-2.5), fmt(1.5e-17), fmt(0.0)
    ('0.417', '−2.500', '1.50×10<sup>−17</sup>', '0')
    """
    if x == 0:
        return "0"
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else "\u2212∞"
    if 1e-3 <= abs(x) < 1e6:
        return _minus(f"{x:.{digits}f}")
    mantissa, exponent = f"{x:.2e}".split("e")
    return _scientific(mantissa, int(exponent))


def fmt_exp(u):
    """e^u without overflow, through log10 once e^u leaves the range of a double.

    >>> fmt_exp(2.0), fmt_exp(1000.0)
    ('7.389', '1.97×10<sup>434</sup>')
    """
    if abs(u) < 700:
        return fmt(math.exp(u))
    lg = u / math.log(10)
    e = math.floor(lg)
    m = f"{10 ** (lg - e):.2f}"
    if m == "10.00":
        m, e = "1.00", e + 1
    return _scientific(m, e)


def _fmt_loss(x, unit):
    """The loss with three decimals, and its exact size beside it when that rounds to 0.000."""
    tiny = f' <span class="aside">({fmt(x)})</span>' if 0 < x < 5e-4 else ""
    return f"{_minus(f'{x:.3f}')} {unit}{tiny}"


def _row(cells, tag, cls=""):
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def render_readouts(s, t):
    """Every readout's HTML for one state s (names, z, T, y, p, g, loss, entropy_bits, lse); t = strings."""
    K = len(s["z"])
    names = [html.escape(n, quote=True).replace("&#x27;", "&#39;") for n in s["names"]]
    y, T = s["y"], s["T"]
    head = _row([t["col_class"], "z", "e<sup>z/T</sup>", t["col_prob"], t["col_arrow"]], "th")
    body = "".join(
        _row([names[k], fmt(z), fmt_exp(z / T), fmt(s["p"][k]), fmt(s["g"][k])], "td", "true" if k == y else "")
        for k, z in enumerate(s["z"]))
    g_sum = 0.0
    for g in s["g"]:
        g_sum += g
    if abs(g_sum) < 1e-9:
        g_sum = 0.0
    zmax = max(s["z"]) / T
    loss, lse = s["loss"], s["lse"]
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
                   f' = <span class="value">{fmt(s["p"][y])}</span>',
    }
