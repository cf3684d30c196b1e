"""The controls' rows (app/controls.py): what each action writes, which a link's lock and hide go by."""

import pytest

from app import actions, controls, fields
from app.controls import CONTROLS
from tests.twin_cases import STATES

# The actions of app/actions.py a control runs, with the arguments a learner can give them.
RUNS = {"add_one": [()], "reset": [()], "add_class": [()], "remove_class": [()],
        "preset": [(p,) for p in actions.PRESETS]}
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


def test_every_key_a_link_can_lock_has_a_control_and_reset_everything_none():
    keys = {key for c in CONTROLS for key in (c.field, *c.writes) if key}
    assert keys == set(fields.CONTROLLED)
    everything = controls.BY_NAME["reset_all"]
    assert not controls.locked(everything, {"lock": list(fields.CONTROLLED), "hide": list(fields.CONTROLLED)})
