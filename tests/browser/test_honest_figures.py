"""Figures that never mislead: each arrow is drawn at its true length (2·|−∂L/∂z| in logit units) or cut at
the plot's edge with a break mark and its value written beside it; the logit axis stays still, so "add 1"
visibly lifts every point while the bars stay. In both languages."""

import numpy as np
import pytest

import core
from app.document import VIEW
from app.link import link_pairs, parse_link
from tests.browser import lessonpage as lp
from tests.browser.test_lab import opened

CASES = {"cold, dog the true class": "z=2,1,0.1&T=0.01&y=1", "dog at 25": "z=2,25,0.1",
         "cold, in Korean": "z=2,1,0.1&T=0.01&y=1&lang=ko", "cold, cat the true class": "z=2,1,0.1&T=0.01"}


def test_every_arrow_is_its_true_length_or_cut_with_a_mark_and_its_value(new_page, request):
    clipped = 0
    p = opened(new_page, request, "exported", "")
    for case, link in CASES.items():
        # Each case as a script writes it on the page (checked, then drawn as the page's own): one page for all.
        p.pg.evaluate(f"(s) => {{ ({lp.FIND})('lesson').state = s; }}", parse_link(link_pairs(link))[0])
        lp.settled(p.pg)
        s = lp.state(p.pg)
        g = -core.grad_logits(np.array(s["z"]), s["y"], T=s["T"], label_smoothing=s["eps"])
        arrows, (start, end) = lp.data(p.pg, "arrows"), lp.logit_axis(p.pg)
        edge = (start + VIEW["arrow_margin"], end - VIEW["arrow_margin"])
        for k, gk in enumerate(g):
            y0, y1, cut = arrows["y0"][k], arrows["y1"][k], arrows["clipped"][k]
            assert y0 == s["z"][k] and edge[0] <= y1 <= edge[1], (case, k)
            if cut:
                clipped += 1
                assert y1 in edge and abs(y1 - y0) < 2 * abs(gk), (case, k, y1)
                assert arrows["mark_alpha"][k] == 1 and arrows["mark_y"][k] != y0, (case, k)
                shown = float(arrows["label"][k].split("=")[-1].replace("−", "-"))
                assert shown == pytest.approx(gk, abs=5e-4), (case, k, arrows["label"][k])
            else:
                assert abs(y1 - y0) == pytest.approx(2 * abs(gk), rel=1e-12, abs=1e-12), (case, k)
                assert arrows["label"][k] == "" and (arrows["mark_alpha"][k] == 0 or abs(gk) * 2 < VIEW["min_arrow"])
    assert p.errors == []
    assert clipped == 4, "at T = 0.01 the true dog's and the cat's arrows (±200 units) leave the plot, both languages"


def screen_heights(pg, K):
    return [lp.point_xy(pg, k)[1] for k in range(K)]


def test_add_one_lifts_every_point_by_one_unit_while_the_axis_stays(new_page, request):
    """Each press lifts every point on screen: by exactly one unit while the axis stays (the first press), and,
    once the top logit is within 3 of its end, on an axis grown by exactly the press at the top, so no point ever
    goes down (issue 37: the axis used to jump by 6 and every point fell)."""
    p = opened(new_page, request, "exported", "z=2,1,0.1")
    z, axis, sy = lp.state(p.pg)["z"], lp.logit_axis(p.pg), screen_heights(p.pg, 3)
    p_before = lp.data(p.pg, "probs")["p"]
    still = 0
    for press in range(10):
        lp.click(p.pg, "add_one")
        lp.wait_state(p.pg, f"(s) => s.z[0] === {z[0] + 1}")
        z2, axis2, sy2 = lp.state(p.pg)["z"], lp.logit_axis(p.pg), screen_heights(p.pg, 3)
        if axis2 == axis:
            still += 1
            unit = (sy[1] - sy[0]) / (z[0] - z[1])  # pixels per logit unit on this axis
            assert all(abs((b - a) + unit) < 0.5 for a, b in zip(sy, sy2, strict=True)), (press, sy, sy2, unit)
        else:
            assert axis2[0] == axis[0] and axis2[1] == pytest.approx(axis[1] + 1), "grown by the press, at the top"
            assert all(b < a - 0.5 for a, b in zip(sy, sy2, strict=True)), (press, sy, sy2)
        np.testing.assert_allclose(lp.data(p.pg, "probs")["p"], p_before, rtol=1e-12)
        z, axis, sy = z2, axis2, sy2
    assert still == 1, f"the axis stayed on {still} of 10 presses (±6 holds the first: 3, 2, 1.1)"
    assert p.errors == []
