"""The lessons and links both twins are checked on: one shared fixture of cases, in Python.

The Python side (core/ and app/) computes the truth for each; tests/js/make_twins.py (the twins) and
tests/js/make_lessons.py (the page's renderer) write it into JSON fixtures for `node --test` (static/).
States: K from 2 to 10, ε, both ends of T, clipped arrows, subnormal probabilities, odd names, both units
and both languages. Links: every malformed kind seen (MALFORMED and BOKEH_KEYS, each refused with a notice)
and valid ones.
"""

import numpy as np

from app import actions, fields
from app.strings import LANGS

ODD = ["<img src=x onerror=alert(1)>", "</script>", "$$\\alpha$$", "a$&b", "\"q'&", "고양이", "ねこ", "x<y",
       "가" * 40, "a b"]


def base_state(z, names=None, **kw):
    """The default lesson of app/fields.py for logits z, with `names` and other keys as given."""
    lang = kw.pop("lang", "en")
    return {**fields.default_state(lang, len(z)), "z": list(z), "initial": list(z),
            **({"names": names} if names else {}), **kw}


def changed(f, s):
    """A valid value of field f (app/fields.py) that state s does not hold, by the field's kind; a link's lock and
    hide fix T and ε."""
    held = s[f.key]
    if f.kind == "logits":
        return [z + 3.0 for z in held]
    if f.kind == "names":
        return ["ant", "bee", "<b>wasp</b>"]  # markup stays text
    if f.kind in ("real", "count"):  # halfway to the upper bound, or from the lower one when s holds it
        lo, hi = f.bounds
        start = held if held != hi else lo
        return (start + hi) / 2 if f.kind == "real" else (start + hi) // 2
    if f.kind == "index":
        return (held + 1) % len(s["z"])
    if f.kind == "choice":
        return next(c for c in f.choices if c != held)
    if f.kind == "flag":
        return not held
    if f.kind == "notice":
        return "refused" if held != "refused" else ""
    if f.kind == "keys":
        return ["T", "eps"] if f.key in ("lock", "hide") else [c for c in f.choices if c not in held]
    raise AssertionError(f"no changed value for a {f.kind} field ({f.key}): add one here")


HAND = [
    base_state([2.0, 1.0, 0.1]),                                                # the SPEC's default lesson
    base_state([2.0, 1.0]),                                                     # two classes: the sigmoid
    base_state(actions.TEN),                                                    # ten classes
    base_state([0.0] * 5),                                                      # knows nothing: ln K
    base_state([2.0, 1.0, 0.1, -0.5], eps=0.1),                                 # SPEC: gap 3.61, floor 0.349
    base_state([0.0, -7.44], T=0.01, y=1),                                      # p = 7.67e-324, subnormal
    base_state([0.0, -7.43], T=0.01, y=1),                                      # p = 2.09e-323
    base_state([100.0, -100.0, 0.0], T=0.01, y=1),                              # huge loss, clipped arrows
    base_state([100.0, 100.0, -100.0], T=100.0, y=2, eps=0.5, units="bits"),
    base_state([2.0, 1.0, 0.1], names=ODD[:3], y=1, eps=0.2, lang="ko"),
    base_state([2.0, 1.0, 0.1, 3.0, -1.0], names=ODD[3:8], y=4, units="bits"),
    base_state([-100.0, 100.0], T=0.01, notice="at_limit"),
    base_state([1.0, 2.0, 3.0], notice="link_bad:z, <b>q</b>"),
    base_state([2.0, 1.0, 0.1], lock=["T", "y"], hide=["names", "eps"]),         # an instructor's question
]


def random_states(n=230, seed=20261201):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        K = int(rng.integers(2, 11))
        scale = float(10 ** rng.uniform(-1, 2))
        z = np.clip(rng.standard_normal(K) * scale, -100, 100).round(int(rng.integers(0, 15))).tolist()
        lang = LANGS[i % len(LANGS)]
        names = None if i % 3 else [ODD[k % len(ODD)] + ("" if k < len(ODD) else str(k)) for k in range(K)]
        out.append(base_state(
            z, names=names, T=float(10 ** rng.uniform(-2, 2)), y=int(rng.integers(K)),
            eps=float(rng.choice([0.0, 0.0, 0.01, 0.1, 0.3, 0.5])), units=["nats", "bits"][i % 4 == 3], lang=lang))
    return out


STATES = HAND + random_states()


MALFORMED = [
    "z=abc", "z=", "z=1", "z=1,2,3,4,5,6,7,8,9,10,11", "z=nan,1,2", "z=1,inf,2", "z=1e999,1,2", "z=101,0,0",
    "z=1,,2", "z=0x10,1,2", "z=1_0,1,2", "z= 1,2,3", "T=0", "T=-1", "T=1000", "T=NaN", "T=", "T=1e-3",
    "T=abc", "y=3", "y=-1", "y=1.5", "y=abc", "y=99", "names=a,a", "names=a,a%E2%80%8B,c", "names=,b,c",
    "names=%20,b,c", "names=a%E2%80%AEb,c,d", "names=a%07,b,c", "names=" + "x" * 41 + ",b,c",
    "names=a,b,c,d,e,f,g,h,i,j,k", "eps=0.6", "eps=-0.1", "eps=x", "units=joules", "lang=fr", "theme=blue",
    "lecture=yes", "lecture=2", "q=1", "z=1,2,3&z=4,5,6", "T=2&T=3", "%3Cscript%3E=1", "z=1,2&names=a,b,c",
    "y=2&z=1,2", "=1", "z", "T=1&&&y=0&unknown",
    # An instructor's lock and hide take the link keys of controls, each once.
    "lock=", "lock=t", "lock=T,T", "lock=z0", "lock=notice", "hide=eps,,names", "hide=%20T", "lock=T;y",
    # Names that draw as others do: a Braille blank after one, a Hangul filler for a space (issue 36).
    "names=cat,cat%E2%A0%80,dog", "names=a+b,a%E3%85%A4b,c",
    # Links that broke a served session in Panel's own query parser, before the app's parser ran, or that the
    # two parsers read differently (issue 13): non-ASCII digits, a value past Python's 4,300-digit int limit,
    # a leading "?", undecodable escapes, more fields than any lesson has (Tornado refused 1,000 with a 400).
    "y=%C2%B2", "T=%E2%91%A0", "z=1,2,3&y=" + "1" * 4301, "?z=1,2,3", "z=%ZZ,1,2", "names=%FF,b,c", "%FF=1",
    "&".join(f"f{i}=1" for i in range(1200)), "z=1,2,3&" + "&".join(["T=2"] * 70), "z=1,2,3&z0=1,2",
]
# Links with Bokeh's own keys, refused with a notice like any unknown key (issue 36: the exported page dropped them
# in silence). Apart from MALFORMED: the served app never reads them, it redirects to the link without them.
BOKEH_KEYS = ["bokeh-absolute-url=x&T=2", "z=1,2,3&bokeh-session-id=lecture-3&bokeh-token=e30.e30.x",
              "bokeh%2Dresources=cdn&y=1"]
VALID = ["z=-1,3,0.5&T=0.5&y=2", "z=1,2,3&z0=0,0,0", "z0=1,2,3&names=a,b,c", "z0=1,2", "T=1&&&&&&&&y=0",
         "z=2,1,0.1", "names=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E,b,c", "lang=ko",
         "lang=ko&names=x,y", "z=1,2&names=a,b&y=1&eps=0.1&units=bits&theme=dark&lecture=1", "", "T=100",
         "T=0.01&z=100,-100", "z=%2B1,.5,5.&T=1E-1", "names=a,b",
         "lock=y,T&hide=eps,names", "lock=z,T,y,eps,lr,units,names,lang,theme,lecture&hide=lecture"]


# A lesson that does each step's task, from its set-up state: what the browser test's gestures reach.
DONE_BY = {
    "scores": lambda s: {**s, "z": [2.0, 2.5, 0.1]},
    "shift": lambda s: {**s, "z": [v + 3 for v in s["z"]]},
    "naive": lambda s: {**s, "z": [v - max(s["z"]) for v in s["z"]]},  # subtract the max: T stays
    "temperature": lambda s: {**s, "T": 3.0},
    "lse": lambda s: {**s, "T": 0.25},
    "sigmoid": lambda s: {**s, "z": [2.0, 0.0]},
    "loss": lambda s: {**s, "z": [4.5, 1.0, 0.1]},
    "information": lambda s: {**s, "units": "bits"},
    "gradient": lambda s: {**s, "z": [2.0, 5.0, 0.1]},
    "runaway": lambda s: {**s, "z": [4.5, -0.5, -1.0]},
    "smoothing": lambda s: {**s, "z": [float(np.log(28)), 0.0, 0.0]},  # the best gap at ε = 0.1, K = 3: ln 28
    "sampling": lambda s: {**s, "n": 10000},
    "calibration": lambda s: {**s, "cT": 2.357694835801585},  # "Fit T on validation" (app/calibration.py fitted)
    "decoding": lambda s: {**s, "T": 0.5},
    "attention": lambda s: {**s, "head": "1"},  # e^(−5/2) ≈ 0.082 < 0.1
    "router": lambda s: {**s, "z": [2.0, 1.0, 1.5, -0.5]},  # the bird above the dog
    "start": lambda s: {**s, "z": [1.0, 1.0, 1.0]},
}
