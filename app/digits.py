"""Numbers as people read them, with every shown digit right: the Python twin of static/digits.mjs.

Display of a real y: fixed with 3 decimals when y = 0 or 1e-3 ≤ |y| < 1e6, else 3 significant digits as
m×10<sup>e</sup>, with U+2212 minus signs. Ties go away from zero, as JavaScript's toFixed/toExponential do
on the exact value of a double, so both renderers write the same text.

`fmt_exp(u)` shows e^u correctly rounded for every double u, even where e^u is subnormal, 0 or beyond the
double range as a float (exp(−744) = 7.67×10⁻³²⁴, which the double 9.88e-324 would misstate). Why this is
exact: each shown string covers one interval of reals, so if lo < e^u < hi and lo and hi show the same
string, so does e^u. The bracket comes from correctly rounded Decimal arithmetic and is tightened (more
digits) until its ends agree, which ends because e^u, irrational for u ≠ 0, is never on a boundary.
"""

import math
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, ROUND_FLOOR, ROUND_HALF_UP, Context, Decimal, localcontext
from functools import cache

MINUS = "\u2212"
EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)  # +, −, ×, scaleb and quantize round nothing
SUPERSCRIPT = str.maketrans("0123456789\u2212", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def to_fixed(x, digits):
    """JavaScript's x.toFixed(digits) for |x| < 1e21: the exact binary value, ties away from zero.

    >>> to_fixed(0.125, 2), to_fixed(-0.625, 2), to_fixed(2.0, 3), to_fixed(-0.0, 1)
    ('0.13', '-0.63', '2.000', '0.0')
    """
    return str(Decimal(x + 0.0).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def fmt(x):
    """A double as people read it.

    >>> fmt(0.41703), fmt(-2.5), fmt(1.5e-17), fmt(0.0), fmt(math.inf)
    ('0.417', '−2.500', '1.50×10<sup>−17</sup>', '0.000', '∞')
    """
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    return _html(_shown(Decimal(x)))  # Decimal(x) is the double's exact value


def fmt_exp(u):
    """e^u as people read it, correctly rounded for every double u.

    >>> fmt_exp(2.0), fmt_exp(-744.0), fmt_exp(1000.0), fmt_exp(-math.inf)
    ('7.389', '7.67×10<sup>−324</sup>', '1.97×10<sup>434</sup>', '0.000')
    """
    if math.isnan(u):
        return "—"
    if u == math.inf:
        return "∞"
    if u == -math.inf:
        return "0.000"
    prec = 20
    while True:
        lo, hi, k = _bracket_exp(u, prec)
        a, b = _shown(lo, k), _shown(hi, k)
        if a == b:
            return _html(a)
        prec *= 2


def fmt_exp_text(u):
    """`fmt_exp` as plain text, for labels drawn on a canvas: 7.67×10⁻³²⁴.

    >>> fmt_exp_text(-744.0)
    '7.67×10⁻³²⁴'
    """
    text = fmt_exp(u)
    if "<sup>" not in text:
        return text
    mantissa, exponent = text.removesuffix("</sup>").split("<sup>")
    return mantissa + exponent.translate(SUPERSCRIPT)


def _bracket_exp(u, prec):
    """lo < e^r < hi with e^u = e^r·10^k, r in about [0, ln 10].

    Splitting off 10^k keeps the Decimal exponent in range for any double (e^1e308 = 10^(4.3e307)). Each
    step is exact or correctly rounded, and the true value of a correctly rounded result lies strictly
    between its neighbours, so next_minus/next_plus give strict bounds.
    """
    d = Decimal(u)
    digits = prec + max(d.adjusted(), 0) + 5  # enough for r to `prec` digits
    with localcontext() as ctx:
        ctx.prec = digits
        ln10 = _ln10(digits)
        ln10_lo, ln10_hi = ln10.next_minus(), ln10.next_plus()
        k = int((d / ln10).to_integral_value(ROUND_FLOOR))  # any nearby k will do
    with localcontext(EXACT):
        r_lo, r_hi = sorted([d - k * ln10_lo, d - k * ln10_hi])
    with localcontext() as ctx:
        ctx.prec = prec
        return r_lo.exp().next_minus(), r_hi.exp().next_plus(), k


@cache
def _ln10(digits):
    with localcontext() as ctx:
        ctx.prec = digits
        return Decimal(10).ln()


def _shown(x, k=0):
    """How the exact value x·10^k is shown: ('f', Decimal with 3 decimals) or ('e', n, e) for n/100 × 10^e."""
    with localcontext(EXACT):
        if x == 0:
            return ("f", Decimal("0.000"))  # −0.0 too, as in JavaScript
        # Only for small k can x·10^k (x about 1 to 10) fall in [1e-3, 1e6).
        if abs(k) < 10 and Decimal("1e-3") <= abs(x.scaleb(k)) < Decimal("1e6"):
            return ("f", x.scaleb(k).quantize(Decimal("0.001"), ROUND_HALF_UP))
        e = x.adjusted()
        n = int(x.scaleb(2 - e).quantize(Decimal(1), ROUND_HALF_UP))
        if abs(n) == 1000:  # 9.995 rounds to 10.0: carry into the exponent
            n, e = n // 10, e + 1
        return ("e", n, e + k)


def _html(shown):
    if shown[0] == "f":
        return str(shown[1]).replace("-", MINUS)
    _, n, e = shown
    mantissa = f'{"-" if n < 0 else ""}{abs(n) // 100}.{abs(n) % 100:02d}'
    exponent = str(e) if abs(e) < 10**6 else _html(_shown(Decimal(e)))  # a huge exponent, itself m×10^e
    return f"{mantissa}×10<sup>{exponent}</sup>".replace("-", MINUS)


def js_string(x):
    """JavaScript's String(x) for a finite double: the shortest digits that round-trip, in JavaScript's layout.

    >>> js_string(2.0), js_string(-0.0), js_string(0.1), js_string(1e-7), js_string(1.5e21), js_string(123.45)
    ('2', '0', '0.1', '1e-7', '1.5e+21', '123.45')
    """
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    shortest = Decimal(repr(abs(x))).normalize().as_tuple()  # repr: the shortest digits that round-trip
    digits = "".join(map(str, shortest.digits))
    k = len(digits)
    n = k + shortest.exponent  # x = 0.digits × 10^n, as in ECMAScript's Number::toString
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return f"{sign}{digits[:n]}.{digits[n:]}"
    if -6 < n <= 0:
        return f"{sign}0.{'0' * -n}{digits}"
    mantissa = digits[0] + (f".{digits[1:]}" if k > 1 else "")
    return f"{sign}{mantissa}e{'+' if n > 0 else '-'}{abs(n - 1)}"


def logit_text(z):
    """A logit as its input shows it: 12 significant digits, so 0.1 − 1 + 1 shows as 0.1, not 0.09999999999999998.

    >>> logit_text(0.09999999999999998), logit_text(2.0), logit_text(-0.9)
    ('0.1', '2', '-0.9')
    """
    d = Decimal(z)
    if d == 0:
        return "0"
    return js_string(float(d.quantize(Decimal(1).scaleb(d.adjusted() - 11), ROUND_HALF_UP)))
