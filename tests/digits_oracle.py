"""How numbers must be shown: the truth for every digit the page shows, written apart from static/digits.mjs.

Display of a real y: fixed with 3 decimals when y = 0 or 1e-3 ≤ |y| < 1e6, else 3 significant digits as
m×10<sup>e</sup>, with U+2212 minus signs, ties away from zero. `shown(x)` shows a double's exact value
(Fraction arithmetic); `shown_exp(u)` shows e^u, computed with mpmath: e^u = 10^(I + f), the mantissa 10^f and
its rounding worked at 60 digits (plus those of I); when the value lies within 10^-50 of a rounding boundary
the precision doubles, so the answer is always exact. `to_fixed`, `js_string` and `logit_text` are what
JavaScript's toFixed, String and the logit inputs' 4 decimals write, from the ECMAScript rules.
Also: near_ties(), doubles u whose e^u lies next to a boundary, the cases where a sloppy renderer errs.
"""

import math
from fractions import Fraction
from functools import cache

from mpmath import mp, mpf

MINUS = "\u2212"
SUPERSCRIPT = str.maketrans("0123456789\u2212", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _exponent10(a):
    """The e with 10^e ≤ a < 10^(e+1), for an exact a > 0."""
    e = math.floor(math.log10(a.numerator) - math.log10(a.denominator))  # off by at most one
    while Fraction(10) ** e > a:
        e -= 1
    while Fraction(10) ** (e + 1) <= a:
        e += 1
    return e


def _half_up_exact(a):
    """The integer nearest to an exact a ≥ 0, a tie going up."""
    return math.floor(a + Fraction(1, 2))


def to_fixed(x, digits):
    """JavaScript's x.toFixed(digits) for a finite |x| < 1e21: the exact value of the double rounded to
    `digits` decimals, a tie away from zero; "-" for x < 0 (−0 has none).

    >>> to_fixed(0.125, 2), to_fixed(-0.625, 2), to_fixed(2.0, 3), to_fixed(-0.0, 1), to_fixed(-1e-4, 3)
    ('0.13', '-0.63', '2.000', '0.0', '-0.000')
    """
    n = str(_half_up_exact(abs(Fraction(x)) * 10**digits)).rjust(digits + 1, "0")
    return ("-" if x < 0 else "") + (f"{n[:-digits]}.{n[-digits:]}" if digits else n)


def shown(x):
    """The display of a double x (fmt's contract): its exact value by the display rule.

    >>> shown(0.41703), shown(-2.5), shown(1.5e-17), shown(0.0), shown(-0.0), shown(math.inf), shown(9.9951e10)
    ('0.417', '−2.500', '1.50×10<sup>−17</sup>', '0.000', '0.000', '∞', '1.00×10<sup>11</sup>')
    """
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    a = abs(Fraction(x))
    if a == 0 or Fraction(1, 1000) <= a < 10**6:
        return to_fixed(x + 0.0, 3).replace("-", MINUS)
    e = _exponent10(a)
    n = _half_up_exact(a / Fraction(10) ** (e - 2))
    if n == 1000:  # 9.995 rounds to 10.0: carry into the exponent
        n, e = 100, e + 1
    sign = MINUS if x < 0 else ""
    return f"{sign}{n // 100}.{n % 100:02d}×10<sup>{_exponent(e)}</sup>"


def shown_exp_text(u):
    """`shown_exp` as plain text, as a label drawn on a canvas shows it: 7.67×10⁻³²⁴. For |u| < 2.3e6, where
    the exponent is itself plain digits (a probability's label: u = log p ≥ −2·10⁴ in a lesson); None beyond.

    >>> shown_exp_text(-744.0), shown_exp_text(0.0), shown_exp_text(1e300)
    ('7.67×10⁻³²⁴', '1.000', None)
    """
    html = shown_exp(u)
    if "<sup>" not in html:
        return html
    mantissa, exponent = html.removesuffix("</sup>").split("<sup>", 1)
    return None if "<sup>" in exponent else mantissa + exponent.translate(SUPERSCRIPT)


def js_string(x):
    """JavaScript's String(x) for a finite double (ECMAScript's Number::toString): the shortest digits that
    round-trip (Python's repr finds the same ones), laid out as JavaScript lays them out.

    >>> js_string(2.0), js_string(-0.0), js_string(0.1), js_string(1e-7), js_string(1.5e21), js_string(123.45)
    ('2', '0', '0.1', '1e-7', '1.5e+21', '123.45')
    """
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    n = len(whole.lstrip("0")) + (int(exp) if exp else 0)  # x = 0.digits × 10^n
    if not whole.lstrip("0"):
        n -= len(frac) - len(frac.lstrip("0"))
    digits = digits.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return f"{sign}{digits[:n]}.{digits[n:]}"
    if -6 < n <= 0:
        return f"{sign}0.{'0' * -n}{digits}"
    tail = f".{digits[1:]}" if k > 1 else ""
    return f"{sign}{digits[0]}{tail}e{'+' if n > 0 else '-'}{abs(n - 1)}"


def logit_text(z):
    """A logit or a real field as its input and a link write it: String(Number(z.toFixed(4))), the exact value
    rounded to 4 decimals (a tie away from zero), read back as a double and written by `js_string`; past 1e21
    toFixed writes String(z).

    >>> logit_text(0.09999999999999998), logit_text(2.0), logit_text(-0.9), logit_text(-0.0), logit_text(1.03125)
    ('0.1', '2', '-0.9', '0', '1.0313')
    """
    if abs(z) >= 1e21:
        return js_string(z)
    value = float(to_fixed(z, 4))  # float("…") rounds correctly, as Number("…") does
    return js_string(0.0 if value == 0 else value)


def real_text(x):
    """A real field (T, ε, η) as a link writes it: String(Number(x.toPrecision(4))), the exact value rounded to 4
    significant digits (a tie to the larger magnitude), read back as a double and written by `js_string`.

    >>> real_text(0.00123456), real_text(12.345), real_text(0.15625), real_text(-2.0), real_text(0.0)
    ('0.001235', '12.35', '0.1563', '-2', '0')
    """
    if x == 0:
        return "0"
    a = abs(Fraction(x))
    e = _exponent10(a)
    n = _half_up_exact(a / Fraction(10) ** (e - 3))
    try:
        value = float(Fraction(n) * Fraction(10) ** (e - 3))  # float(Fraction) rounds correctly, as Number does
    except OverflowError:  # 1.798e308 is past the largest double: Number reads it as Infinity
        return "-Infinity" if x < 0 else "Infinity"
    return js_string(-value if x < 0 else value)


@cache  # the fixtures ask for the same u many times (a label and its cell)
def shown_exp(u):
    """The display of e^u for a double u (fmt_exp's contract), correctly rounded."""
    if math.isnan(u):
        return "—"
    if u == math.inf:
        return "∞"
    if u == -math.inf:
        return "0.000"
    dps = 60
    while (answer := _attempt(u, dps)) is None:
        dps *= 2
    return answer


def _half_up(z, tol):
    """z > 0 rounded half-up, or None when z lies within tol of a tie (work again with more digits)."""
    n = int(mp.floor(z))
    if abs(z - n - mpf(0.5)) <= tol * z:
        return None
    return n + (1 if z - n > 0.5 else 0)


def _attempt(u, dps):
    with mp.workdps(dps + len(str(int(abs(u)))) + 10):
        lg = mpf(u) / mp.ln10
        exponent = int(mp.floor(lg))
        fraction = lg - exponent
    with mp.workdps(dps):
        tol = mpf(10) ** (10 - dps)
        mantissa = mpf(10) ** fraction
        if -5 <= exponent <= 7:
            y = mantissa * mpf(10) ** exponent
            if any(abs(y / edge - 1) <= tol for edge in (mpf(10) ** -3, mpf(10) ** 6)):
                return None
            if mpf(10) ** -3 <= y < mpf(10) ** 6:
                n = _half_up(y * 1000, tol)
                return None if n is None else f"{n // 1000}.{n % 1000:03d}"
        n = _half_up(mantissa * 100, tol)
        if n is None:
            return None
        if n == 1000:
            n, exponent = 100, exponent + 1
        return f"{n // 100}.{n % 100:02d}×10<sup>{_exponent(exponent)}</sup>"


def _exponent(e):
    sign, a = (MINUS if e < 0 else ""), abs(e)
    if a < 10**6:
        return sign + str(a)
    digits = len(str(a))
    q = 10 ** (digits - 3)
    n = (2 * a + q) // (2 * q)
    if n == 1000:
        n, digits = 100, digits + 1
    return f"{sign}{n // 100}.{n % 100:02d}×10<sup>{digits - 1}</sup>"


def near_ties(rng, count):
    """Doubles u (and their neighbours) nearest to ln b for boundaries b: scientific ties m.mm5×10^e,
    fixed ties x.xxx5, and the switches at 1e-3 and 1e6. e^u then lies within |u|·2^-53 of b."""
    out = []
    with mp.workdps(50):
        for _ in range(count):
            r = rng.random()
            if r < 0.5:
                e = rng.choice([rng.randint(-325, -4), rng.randint(6, 307)])
                b = mpf(2 * rng.randint(100, 999) + 1) / 2 * mpf(10) ** (e - 2)
            elif r < 0.9:
                b = (mpf(int(10 ** rng.uniform(0, 9))) + mpf(0.5)) / 1000
            else:
                b = rng.choice([mpf(10) ** -3, mpf(10) ** 6, (mpf(10) ** 9 - mpf(0.5)) / 1000,
                                mpf(1999) / 2 * mpf(10) ** -6])
            u = float(mp.log(b))
            out += [math.nextafter(u, -math.inf), u, math.nextafter(u, math.inf)]
    return out
