"""The controls' rows (app/controls.py): what each action writes, which a link's lock and hide go by."""

import pytest

from app import actions, controls, fields, rules, tour
from app.controls import CONTROLS
from app.document import widest_value
from app.steps import STEPS
from tests.twin_cases import STATES, changed

# The actions of app/actions.py a control runs, with the arguments a learner can give them.
RUNS = {"add_one": [()], "subtract_max": [()], "reset": [()], "add_class": [()], "remove_class": [()],
        "preset": [(p,) for p in actions.PRESETS],
        "paste": [("tensor([2.0, 1.0, 0.1])",), (", ".join(str(-0.5 * k) for k in range(50)),)]}
LINK_KEY = {f.key: f.link for f in fields.FIELDS}


@pytest.mark.parametrize("c", [c for c in CONTROLS if c.action in RUNS], ids=lambda c: c.name)
def test_a_control_writes_every_key_its_action_changes(c):
    changed = set()
    moved = [{**s, "z": [min(v + 0.5, 100.0) for v in s["z"]]} for s in STATES]  # reset has somewhere to go
    for s in STATES + moved:
        for args in RUNS[c.action]:
            after = getattr(actions, c.action)(s, *args)
            changed |= {LINK_KEY[k] for k in s if k != "notice" and after[k] != s[k]}
    assert changed - {"z0"} == set(c.writes), changed  # z0 moves with z: "z" locks both


def test_start_again_writes_exactly_the_keys_entering_a_step_can_change():
    """"Start again" is inert when a link locks a key it writes: a key it never changes would lock it for nothing
    (the units did), a key it changes and does not list would be changed under a lock."""
    base = fields.default_state()
    # Every key elsewhere but the link's lock and hide, which would keep what they hold.
    far = rules.checked_state({**base, **{f.key: changed(f, base) for f in fields.FIELDS
                                          if f.key not in ("notice", "lock", "hide")}})
    written = set()
    for s in (base, far):
        for k, step in enumerate(STEPS, start=1):
            here = {**s, "step": k}
            after = tour.restart(step, here)
            written |= {LINK_KEY[key] for key in here if key != "notice" and after[key] != here[key]}
    assert written - {"z0"} == set(controls.BY_NAME["tour_setup"].writes)


def test_every_key_a_link_can_lock_has_a_control_and_reset_everything_none():
    keys = {key for c in CONTROLS for key in (c.field, *c.writes) if key}
    assert keys == set(fields.CONTROLLED)
    everything = controls.BY_NAME["reset_all"]
    assert not controls.locked(everything, {"lock": list(fields.CONTROLLED), "hide": list(fields.CONTROLLED)})


def test_a_slider_keeps_the_room_of_the_longest_value_it_can_show():
    """The longest value on each slider's track as the page writes it (static/log_slider.js: 3 significant
    digits; Bokeh's "0[.]00" for a linear one), counted by hand: T at 0.0123, η at 0.00123, ε at 0.05."""
    got = {c.name: widest_value(c, fields.BY_KEY[c.field]) for c in CONTROLS if c.widget in ("slider", "log_slider")}
    assert got == {"temperature": len("T = 0.0123"), "learning_rate": len("η = 0.00123"),
                   "label_smoothing": len("0.05"), "calibration_T": len("4.95"), "top_p": len("0.95"),
                   "min_p": len("0.95")}
