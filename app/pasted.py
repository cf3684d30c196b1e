"""A row of logits read from text as people print it: PyTorch, NumPy, or a plain list.

What a learner pastes from a notebook or a terminal, and the forms it is read in:

    tensor([ 2.0000,  1.0000,  0.1000], device='cuda:0', grad_fn=<AddmmBackward0>)   PyTorch, keywords after
    tensor([[2.0000, 1.0000, 0.1000]], dtype=torch.float16)                          one row of a batch of one
    array([2. , 1. , 0.1], dtype=float32)                                           NumPy's repr
    [2.  1.  0.1]                                                                   NumPy's str (print)
    2, 1, 0.1     [2, 1, 0.1]     2 1 0.1                                           a list

Numbers are in rules.NUMBER's form (scientific notation included: -1.2e+01); the items of a row are separated
by commas or by blanks, not both; line breaks anywhere blanks may be (NumPy and PyTorch wrap long rows);
U+2212 MINUS SIGN is read as "-" and a no-break space as a space (text copied from a web page). Refused, each
with its own key in the string table: a text longer than rules.PASTE_MAX (4,000,000 characters: a 128,256-value
row, Llama 3's vocabulary, in float64's longest repr, 25 characters a value with its separator), a summary
(NumPy and PyTorch print "..." in place of the middle of a long row: values are missing), nan or inf, more
than one row, fewer than two values, and anything else.

Linear in the text's length whatever it holds: the text is split with str.split and one-character classes, and
each item matched by rules.NUMBER, whose parts can match a digit in one way only. static/pasted.mjs is the
JavaScript twin (tests/js/pasted.test.mjs reads this module's answers on shared cases).
"""

import math
import re

from .refusal import Refusal, TypeRefusal, shown
from .rules import NUMBER, PASTE_MAX

# The characters a printed row may hold, once the two read as others are replaced: printable ASCII and blanks.
PRINTED = re.compile(r"[\x20-\x7e\t\n\r]*")
BLANKS = " \t\n\r"
READ_AS = str.maketrans({"\u2212": "-", "\u00a0": " "})
# The printers' names before a row: PyTorch's, NumPy's, and the calls that make them, as code would write them.
WRAPPER = re.compile(r"(?:torch\.)?tensor\(|(?:np\.|numpy\.)?array\(")
# A keyword after the row: device='cuda:0', grad_fn=<AddmmBackward0>, dtype=torch.float16, requires_grad=True.
KEYWORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=(?:'[A-Za-z0-9_.:-]*'|<[A-Za-z0-9_.]+>|[A-Za-z0-9_.]+)")
NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.I)
NUMBER_CHARS = re.compile(r"[0-9.eE+\-, \t\n\r]*")  # what numbers and their separators are written with
FORMS = "a row as PyTorch, NumPy or a list prints it, such as tensor([2.0, 1.0, 0.1]), [2 1 0.1] or 2, 1, 0.1"


def parse_logits(text):
    """The numbers of one row of logits printed by PyTorch, NumPy or as a list, as floats; a `Refusal` whose
    `key` says why when the text is not such a row (see the module's docstring).

    >>> parse_logits("tensor([ 2.0000,  1.0000, -1.2e+01], device='cuda:0', grad_fn=<AddBackward0>)")
    [2.0, 1.0, -12.0]
    >>> parse_logits("[[2.  1.  0.1]]"), parse_logits("2, 1, 0.1")
    ([2.0, 1.0, 0.1], [2.0, 1.0, 0.1])
    >>> parse_logits("array([ 0.,  1., ..., 98., 99.])")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    app.refusal.Refusal: the row is a summary ("..." stands for values not printed): print it in full, ...
    """
    if not isinstance(text, str):
        raise TypeRefusal("paste_format", f"a pasted row is text, got {shown(text)}")
    if len(text) > PASTE_MAX:
        raise Refusal("paste_long", f"a pasted row is at most {PASTE_MAX:,} characters, got {len(text):,}")
    text = text.translate(READ_AS)
    if "..." in text or "\u2026" in text:
        raise Refusal("paste_summary", 'the row is a summary ("..." stands for values not printed): print it in '
                                       "full, e.g. after np.set_printoptions(threshold=sys.maxsize) or "
                                       'torch.set_printoptions(profile="full")')
    if not PRINTED.fullmatch(text):
        c = next(c for c in text if not PRINTED.fullmatch(c))
        raise Refusal("paste_format", f"a printed row holds no U+{ord(c):04X} ({c!r}): paste {FORMS}")
    text = text.strip(BLANKS)
    row = _values(_row(_data(text)))
    if len(row) < 2:
        raise Refusal("paste_count", f"a row of logits has at least 2 values, got {len(row)}")
    return row


def _data(text):
    """The row with its brackets: the text itself, or what a tensor( or array( wraps, keywords after it dropped."""
    wrapper = WRAPPER.match(text)
    if not wrapper:
        if "(" in text or ")" in text:
            raise Refusal("paste_format", f"not {FORMS}: got {shown(text)}")
        return text
    inner = text[wrapper.end():]
    if not inner.endswith(")"):
        raise Refusal("paste_format", f"{wrapper.group()} is not closed: got {shown(text)}")
    inner = inner[:-1]
    end = inner.rfind("]")
    if end < 0:
        raise Refusal("paste_count", f"a single number is not a row of logits: got {shown(text)}")
    data, after = inner[:end + 1], inner[end + 1:].split(",")
    if after[0].strip(BLANKS):
        raise Refusal("paste_format", f"unexpected text after the row: {shown(after[0].strip(BLANKS))}")
    for keyword in after[1:]:
        if not KEYWORD.fullmatch(keyword.strip(BLANKS)):
            raise Refusal("paste_format", f"not a keyword such as dtype=float32 after the row: "
                                          f"{shown(keyword.strip(BLANKS))}")
    return data.strip(BLANKS)


def _row(data):
    """The items' text inside the row's brackets: one pair, or two ([[…]], a batch of one row)."""
    start, end, opened, closed = 0, len(data), 0, 0
    while start < end and (data[start] == "[" or data[start] in BLANKS):
        opened += data[start] == "["
        start += 1
    while end > start and (data[end - 1] == "]" or data[end - 1] in BLANKS):
        closed += data[end - 1] == "]"
        end -= 1
    body = data[start:end]
    if opened != closed:
        raise Refusal("paste_format", f"the brackets do not match ({opened} [ and {closed} ]): got {shown(data)}")
    if "[" in body or "]" in body:
        rows = f"{body.count('[') + 1} rows" if opened == 2 else "rows of rows"
        raise Refusal("paste_batch", f"paste one row of logits, not a batch ({rows}): print x[0], for instance")
    if opened > 2:
        raise Refusal("paste_batch", f"paste one row of logits: got one inside {opened} brackets")
    return body


def _values(body):
    """The row's numbers: separated by commas (a trailing one allowed) or by blanks, not both.

    Over the characters of numbers and separators, float() takes exactly the strings rules.NUMBER matches (every
    string of up to six of "1.eE+-" checked), so a row of those characters is read by str.split and float() at C
    speed; item by item, only to say why a row is refused.
    """
    if "," in body:
        items = [item.strip(BLANKS) for item in body.split(",")]
        if len(items) > 1 and not items[-1]:  # [2, 1,]
            items.pop()
    else:
        items = body.split()
    if "" in items:
        raise Refusal("paste_format", f"two commas with no number between them: got {shown(body)}")
    if len(" ".join(items).split()) != len(items):
        mixed = next(item for item in items if any(b in item for b in BLANKS))
        raise Refusal("paste_format", f"separate the numbers by commas or by spaces, not both: got {shown(mixed)}")
    if not NUMBER_CHARS.fullmatch(body):
        return _refused(items)
    try:
        values = list(map(float, items))
    except ValueError:
        return _refused(items)
    if math.inf in values or -math.inf in values:
        raise Refusal("paste_not_finite", f"every logit must be a finite number, got one past float64's largest "
                                          f"({next(item for item in items if math.isinf(float(item)))})")
    return values


def _refused(items):
    for item in items:
        if NOT_FINITE.fullmatch(item):
            raise Refusal("paste_not_finite", f"every logit must be a finite number, got {item}: a model that prints "
                                              "nan or inf has a bug to fix first")
        if not NUMBER.fullmatch(item):
            raise Refusal("paste_format", f"not a number: {shown(item)}; paste {FORMS}")
    raise AssertionError(f"float() refused a number in rules.NUMBER's form: {shown(items)}")
