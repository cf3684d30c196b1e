"""A lesson in a link: the short keys of a URL query (served) or hash (exported file), and back.

The Python twin of static/link.mjs: the served app reads the query here before the first frame; the
exported page reads its hash with the twin. A value that cannot be used (text where a number belongs,
NaN, out of range, too many or too few classes, duplicate or hostile names, an unknown or repeated key)
is replaced by its default, and the notice names the keys that were.

    z=2,1,0.1  z0=2,1,0.1  T=1  y=0  names=cat,dog,bird  eps=0  units=nats  lang=en  theme=light  lecture=0
    lock=T,y  hide=eps,names

`z0` is where "back to the initial logits" returns, written only when it differs from z. Both sides read the
raw text of the query or hash with `link_pairs`, so they agree on every link (a leading "?" included) and
Panel never parses it.
"""

import re
from urllib.parse import unquote_to_bytes

from . import fields, names, rules

# The fields a link carries, by their link key, in the order of app/fields.py's table.
LINKED = {f.link: f for f in fields.FIELDS if f.link}
INDEX = re.compile(r"[0-9]{1,2}")
WHOLE = re.compile(r"[0-9]{1,10}")  # a count: ten digits hold 2^32 − 1
BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
FIELDS_MAX = 64  # fields of one link: more than a lesson has keys (38); a longer link is refused whole
LONGEST = 1000  # characters of one value: ten names of 40 or ten logits fit many times over
SHOWN_KEY = 24  # characters of a refused key that the notice repeats ...
SHOWN_KEYS = 8  # ... and how many refused keys it names


def _parse(key, text):
    """One key's value from its text, by its field's kind; ValueError when it cannot be used."""
    if len(text) > LONGEST:
        raise ValueError(f"{key} is longer than {LONGEST} characters")
    f = LINKED[key]
    if f.kind == "logits":
        return rules.logits([rules.parse_number(v, "a logit") for v in text.split(",")])
    if f.kind == "names":
        return names.clean_names(text.split(","))
    if f.kind == "real":
        return rules.within(rules.parse_number(text, key), f.bounds, key, f.refusal)
    if f.kind == "index":
        if not INDEX.fullmatch(text):
            raise ValueError(text)
        return int(text)
    if f.kind == "count":
        if not WHOLE.fullmatch(text):
            raise ValueError(text)
        return rules.count(int(text), f.bounds, key, f.refusal)
    if f.kind == "flag":
        if text not in ("0", "1"):
            raise ValueError(text)
        return text == "1"
    if f.kind == "keys":
        return rules.keys(text.split(","), f)
    if text not in f.choices:
        raise ValueError(text)
    return text


def _decode(text):
    """Percent-escapes as UTF-8 and "+" as a space; None when the text cannot be decoded (as JavaScript's
    decodeURIComponent refuses it: a "%" without two hex digits, bytes that are not UTF-8)."""
    if BAD_ESCAPE.search(text):
        return None
    try:
        return unquote_to_bytes(text.replace("+", " ")).decode("utf-8")
    except UnicodeDecodeError:
        return None


def link_pairs(text):
    """The (key, value) pairs of a query or hash text, without its "?" or "#": fields split on "&", each at
    its first "="; a value that cannot be decoded is None. At most FIELDS_MAX + 1 fields are decoded.

    >>> link_pairs("z=1,2,3&names=a+b,%EA%B0%80,c&T&bad=%ZZ&&?y=1")
    [('z', '1,2,3'), ('names', 'a b,가,c'), ('T', ''), ('bad', None), ('?y', '1')]
    """
    pairs = []
    for field in text.split("&"):
        if len(pairs) > FIELDS_MAX:
            break
        if not field:
            continue
        raw_key, _, raw_value = field.partition("=")
        key = _decode(raw_key)
        pairs.append((raw_key if key is None else key, None if key is None else _decode(raw_value)))
    return pairs


def parse_link(pairs, lang="en"):
    """The state a link describes, from its (key, value) pairs in order: (state, refused keys).

    `lang` is the language when the link names none. A `bokeh-*` key is refused as any unknown key is: a
    page's link has no use for Bokeh's own (the served app redirects a request that carries one before it reads
    the query, app/server.py; an embed's autoload request drops them first, app/explainer.py).

    >>> state, refused = parse_link([("z", "-1,3,0.5"), ("T", "0.5"), ("y", "2"), ("T", "7"), ("q", "1")])
    >>> state["z"], state["T"], state["y"], refused
    ([-1.0, 3.0, 0.5], 1.0, 2, ['T', 'q'])
    """
    given, refused = {}, []

    def refuse(key):
        key = key[:SHOWN_KEY]
        if key not in refused:
            refused.append(key)

    too_many = len(pairs) > FIELDS_MAX
    for key, value in pairs:
        if not too_many and value is not None and key in LINKED and key not in given and key not in refused:
            given[key] = value
        else:
            refuse(key)
            given.pop(key, None)  # a repeated key is ambiguous: none of its values is used
    values = {}
    for key in ("lang", *(k for k in LINKED if k != "lang")):
        if key in given:
            try:
                values[key] = _parse(key, given[key])
            except ValueError:
                refuse(key)
    counted = values.get("z", values.get("z0"))  # the class count: z's, else z0's
    for key in ("z0", "names"):
        if counted is not None and key in values and len(values[key]) != len(counted):
            del values[key]
            refuse(key)
    lang = values.get("lang", lang)
    K = len(values.get("z") or values.get("z0") or values.get("names") or [0, 0, 0])
    if values.get("y", 0) >= K:
        del values["y"]
        refuse("y")
    state = {**fields.default_state(lang, K), **{LINKED[key].key: value for key, value in values.items()}}
    state["z"] = values.get("z", values.get("z0", state["z"]))  # z0 alone: the lesson starts where it returns
    state["initial"] = list(values.get("z0", state["z"]))
    if refused:
        state["notice"] = f"link_bad:{', '.join(refused[:SHOWN_KEYS])}{', …' * (len(refused) > SHOWN_KEYS)}"
    return state, refused
