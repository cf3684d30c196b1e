"""The teacher's page: every link key with what it takes and an example, and every keyboard shortcut.

Written from the lesson's table (app/fields.py), so a new field is on it without an edit here;
examples/teaching.md is this module's output (`python -m app.teaching > examples/teaching.md`, a test compares).
"""

from .fields import FIELDS, K_BOUNDS, LOGIT_LIMIT, default_state

# What a learner or an instructor does with the keyboard: (where, keys, what it does).
SHORTCUTS = (
    ("anywhere", "Tab, Shift + Tab", "move to the next or the previous control, in the page's order"),
    ("a button or a toggle", "Enter, Space", "press it"),
    ("a logit's input", "↑, ↓", "raise or lower the logit by 0.1"),
    ("a logit's input", "Shift + ↑, Shift + ↓", "by 1"),
    ("a logit's input", "Enter", "take the typed value (a value the rules refuse says why, and the logit stays)"),
    ("a slider (T, ε, η, the classifier's T, top-p, min-p)", "←, →, ↑, ↓", "move it by one step"),
    ("a slider", "Page Up, Page Down", "move it by five steps"),
    ("a slider", "Home, End", "to its lowest or highest value"),
    ("a menu (true class, scenario, language, …)", "↑, ↓, Enter", "choose an entry"),
    ("a text box (class names, N, seed, top-k, the router's k)", "Enter", "take what was typed"),
)


def takes(f):
    """What field f's link value may be, in words."""
    lo, hi = f.bounds or (None, None)
    if f.kind == "logits":
        return f"{K_BOUNDS[0]} to {K_BOUNDS[1]} numbers, each within ±{LOGIT_LIMIT:g}, comma-separated"
    if f.kind == "names":
        return f"{K_BOUNDS[0]} to {K_BOUNDS[1]} class names, comma-separated (default: the language's own)"
    if f.kind == "index":
        return "a class's index, from 0"
    if f.kind == "real":
        return f"a number from {lo:g} to {hi:g}"
    if f.kind == "count":
        return f"a whole number from {lo:,} to {hi:,}"
    if f.kind == "choice":
        return " / ".join(f"`{c}`" for c in f.choices)
    if f.kind == "flag":
        return "`0` or `1`"
    return "some of " + ", ".join(f"`{c}`" for c in f.choices) + ", comma-separated"


def example(f):
    """A value of field f a link might carry: the export option's example, else one the field takes."""
    start = default_state()
    if f.cli and f.cli.example:
        return f.cli.example
    if f.kind in ("logits", "names"):
        return ",".join(v if isinstance(v, str) else f"{v:g}" for v in start[f.key][::-1])
    if f.kind == "flag":
        return "0" if f.default else "1"
    if f.kind == "choice":
        return next(c for c in f.choices if c != f.default)
    if f.kind == "keys":
        return ",".join(f.choices[:2])
    if f.kind == "index":
        return "1"
    lo, hi = f.bounds
    value = min(hi, f.default * 2 if f.default else hi / 2)  # away from the default, well within the range
    return f"{value:g}" if f.kind == "real" else str(int(value))


def default(f):
    """Field f's default as a link writes it."""
    start = default_state()
    if f.kind == "logits":
        return f"`{','.join(f'{v:g}' for v in start['z'])}`"
    if f.kind == "names":
        return "the language's own"
    if f.kind == "flag":
        return f"`{int(f.default)}`"
    if f.kind == "keys":
        return "none"
    return f"`{f.default:g}`" if f.kind == "real" else f"`{f.default}`"


def page():
    """The teacher's page, as Markdown.

    >>> "| `T` |" in page() and "Shift + ↑" in page()
    True
    """
    rows = [f"| `{f.link}` | {f.doc} | {takes(f)} | {default(f)} | `#{f.link}={example(f)}` |"
            for f in FIELDS if f.link]
    keys = [f"| {where} | {keys} | {does} |" for where, keys, does in SHORTCUTS]
    return "\n".join([
        "# Teaching with the softmax explainer",
        "",
        "Every key a link may carry, and every keyboard shortcut. A link is the exported file's address with the keys "
        "after `#` (`explainer.html#z=3,1,0.5&T=0.5`), or the served app's with them after `?`. The page's "
        "**Instructor** section builds one from the lesson on the screen; `softmax-explainer export --help` names the "
        "export command's options for the same keys. A value a link cannot use is replaced by its default, and the "
        "page says which. Written by `python -m app.teaching` from app/fields.py.",
        "",
        "## Link keys",
        "",
        "| key | what it sets | it takes | default | example |",
        "|---|---|---|---|---|",
        *rows,
        "",
        "## Keyboard",
        "",
        "| where | keys | what they do |",
        "|---|---|---|",
        *keys,
        "",
    ])


if __name__ == "__main__":
    print(page(), end="")
