"""The readouts as HTML, from one frame's numbers: the Python twin of static/readouts.mjs.

Both write the same HTML for the same state (tests/browser/test_twins.py). Class names always go through
`escape_html`: a name a person typed is text, never markup. Information readouts show the chosen unit first
and the other one beside it.
"""

import html
import math
import re

from .digits import fmt, fmt_exp, fmt_exp_text, to_fixed

LN2 = math.log(2)


def escape_html(s):
    """A class name as text, never markup (the same five escapes as the JavaScript twin).

    >>> escape_html("<b>&'\\"")
    '&lt;b&gt;&amp;&#39;&quot;'
    """
    return html.escape(str(s), quote=True).replace("&#x27;", "&#39;")


def fill(template, fields):
    """A template's {field}s filled with text (other braces left alone), as the JavaScript twin does.

    >>> fill("{name}: {p}", {"name": "a$&{p}", "p": "0.5"})
    'a$&{p}: 0.5'
    """
    return re.sub(r"\{(\w+)\}", lambda m: str(fields[m[1]]) if m[1] in fields else m[0], template)


def _minus(s):
    return "\u2212" + s[1:] if s.startswith("-") else s


def _fixed3(x, unit):
    """Three decimals, so a learner compares at a glance, and the exact size beside it when that is 0.000:
    the loss never reaches 0 for finite logits."""
    tiny = f' <span class="aside">({fmt(x)})</span>' if 0 < x < 5e-4 else ""
    return f"{_minus(to_fixed(x, 3))} {unit}{tiny}"


def _row(cells, tag, cls=""):
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def _label(text):
    return f'<span class="label">{text}</span>'


def render_readouts(n, s, t):
    """Every readout's HTML for the numbers `n` of one frame (app/frame.py), its state `s` and strings `t`."""
    K, y, T, eps = len(s["z"]), s["y"], s["T"], s["eps"]
    names = [escape_html(name) for name in s["names"]]
    bits = s["units"] == "bits"
    unit, other = (t["bits"], t["nats"]) if bits else (t["nats"], t["bits"])

    def in_units(nats):
        """(the value in the chosen unit, in the other)"""
        return (nats / LN2, nats) if bits else (nats, nats / LN2)

    def info(nats):
        """An information value in the chosen unit, with the other unit beside it."""
        first, second = in_units(nats)
        return (f'<span class="value">{_fixed3(first, unit)}</span>'
                f' <span class="aside">= {_fixed3(second, other)}</span>')

    head = [t["col_class"], "z", "e<sup>z/T</sup>", t["col_prob"]] + ([t["col_target"]] if eps else []) + [
        t["col_arrow"]]
    body = "".join(
        _row([names[k], fmt(z), fmt_exp(z / T), fmt_exp(n["log_p"][k])] + ([fmt(n["target"][k])] if eps else [])
             + [fmt(n["g"][k])], "td", "true" if k == y else "")
        for k, z in enumerate(s["z"]))
    zmax = max(s["z"]) / T
    log_k, log_k_other = in_units(n["ln_k"])
    start = fill(t["start"], {"value": f"{_minus(to_fixed(log_k, 3))} {unit}"})
    scale = max(n["ln_k"], n["loss"]) * 1.1
    floor_w, kl_w, start_x = (to_fixed(100 * v / scale, 2) for v in (n["floor"], n["kl"], n["ln_k"]))
    return {
        "probs": f"<table>{_row(head, 'th')}{body}</table>",
        "loss": f'{_label(t["loss_smoothed"] if eps else t["loss"])} {info(n["loss"])}'
                f' <span class="start">· {start}</span>',
        "entropy": f'{_label(t["entropy"])} {info(n["entropy"])}'
                   f' <span class="aside">≤ {t["entropy_max"]} = {_fixed3(log_k, unit)} = {_fixed3(log_k_other, other)}'
                   "</span>",
        "lse": f'{_label(t["lse"])} <span class="value">{fmt(n["lse"])}</span>'
               f' <span class="aside">{fmt(zmax)} ≤ {fmt(n["lse"])} ≤ {fmt(zmax + n["ln_k"])}</span>',
        "arrows": f'{_label(t["arrow_sum"])} <span class="value">{fmt(n["g_sum"])}</span>',
        "formula": f'{_label(t["formula"])} p<sub>{names[y]}</sub> = <span class="frac"><span>e<sup>z<sub>'
                   f'{names[y]}</sub>/T</sup></span><span>Σ<sub>k</sub> e<sup>z<sub>k</sub>/T</sup></span></span> = '
                   f'<span class="frac"><span>{fmt_exp(s["z"][y] / T)}</span><span>{fmt_exp(n["lse"])}</span></span>'
                   f' = <span class="value">{fmt_exp(n["log_p"][y])}</span>',
        "floor": f'{_label(t["floor"])} {info(n["floor"])}'
                 + ("" if eps else f' <span class="aside">· {t["floor_zero"]}</span>'),
        "kl": f'{_label(t["kl"])} {info(n["kl"])}',
        "perplexity": f'{_label(t["perplexity"])} <span class="value">{fmt_exp(n["loss"])}</span>',
        "gap": "" if not eps else f'{_label(t["gap"])} <span class="value">{fmt(n["gap_best"])}</span>'
                                  f' <span class="aside">{t["gap_now"]} {fmt(n["gap_now"])}</span>',
        "info": f'<div class="bar"><span class="floor" style="width:{floor_w}%"></span>'
                f'<span class="kl" style="width:{kl_w}%"></span><span class="start" style="left:{start_x}%"></span>'
                f'</div><div class="legend"><span class="key floor"></span> {t["info_floor"]}'
                f' <span class="key kl"></span> {t["info_kl"]} <span class="key start"></span> {t["info_start"]}</div>',
        "sigmoid": "" if K != 2 else f'{_label(t["sigmoid"])} = σ({fmt((s["z"][0] - s["z"][1]) / T)}) = '
                                     f'<span class="value">{fmt_exp(n["log_p"][0])}</span>',
    }


def live_text(n, s, t):
    """What the ARIA live region announces after a change: the true class's p and the loss, as plain text."""
    bits = s["units"] == "bits"
    loss = n["loss"] / LN2 if bits else n["loss"]
    return fill(t["live"], {"name": s["names"][s["y"]], "p": fmt_exp_text(n["log_p"][s["y"]]),
                            "loss": _minus(to_fixed(loss, 3)), "unit": t["bits"] if bits else t["nats"]})


def notice_html(s, t, fields):
    """The notice for state `s`: its key's sentence, with the limits (`fields`) and any detail after the key
    ("link_bad:z, T") filled in as escaped text; '' when all is well."""
    key, _, detail = s["notice"].partition(":")
    if not key:
        return ""
    template = t.get(key, t["refused"])  # a forged key says "refused", never raises
    return fill(template, {**fields, "K": str(len(s["z"])), "keys": escape_html(detail), "url": escape_html(detail)})
