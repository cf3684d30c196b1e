"""How e^u must be shown, computed with mpmath, independently of app/digits.py and static/digits.mjs.

e^u = 10^(I + f): the mantissa 10^f and its rounding are worked at 60 digits (plus those of I); when the
value lies within 10^-50 of a rounding boundary the precision doubles, so the answer is always exact.
Also: near_ties(), doubles u whose e^u lies next to a boundary, the cases where a sloppy renderer errs.
"""

import math

from mpmath import mp, mpf

MINUS = "\u2212"


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
