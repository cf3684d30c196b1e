"""The SCORM 1.2 package (`softmax-explainer export --scorm`) as a course platform runs it: unzipped, its launch
file opened two frames below a player whose window offers SCORM 1.2's `API`, a recording stub standing for the
platform. The page (static/scorm.mjs) is what is tested: it must find the API up its parents, initialize, say
"incomplete", say "completed" once the learner does the task of the step it opened at, and finish when it goes.

A platform serves the package's files from its own origin, the player's: SCORM's API is reached by reading a
parent window, which a browser allows within one origin only (two file pages are two origins to Chromium). So the
unzipped folder is served at a made-up origin by the test's own route, and every other request is refused.
"""

import re
import xml.etree.ElementTree as ET
import zipfile

import pytest

from app import export, scorm
from tests.browser import lessonpage as lp

LMS = "http://lms.test"
PLAYER = """<!DOCTYPE html><meta charset="utf-8"><title>player</title>
<script>
  window.calls = [];
  const values = { "cmi.core.lesson_status": "not attempted" };
  const record = (name, result) => (...args) => { calls.push([name, ...args]); return result(...args); };
  window.API = {
    LMSInitialize: record("LMSInitialize", () => "true"),
    LMSGetValue: record("LMSGetValue", (key) => values[key] ?? ""),
    LMSSetValue: record("LMSSetValue", (key, value) => { values[key] = value; return "true"; }),
    LMSCommit: record("LMSCommit", () => "true"),
    LMSFinish: record("LMSFinish", () => "true"),
    LMSGetLastError: () => "0", LMSGetErrorString: () => "", LMSGetDiagnostic: () => "",
  };
</script>
<iframe src="stage.html" style="width: 1100px; height: 900px; border: 0"></iframe>"""
# A platform's own frame between its player and the content, as Moodle's and SCORM Cloud's players have.
STAGE = """<!DOCTYPE html><meta charset="utf-8"><title>stage</title>
<iframe src="{launch}" style="width: 1080px; height: 880px; border: 0"></iframe>"""


@pytest.fixture
def platform(new_page, tmp_path):
    """The package of a lesson that opens at step 1 with T locked, unzipped and launched by the player."""
    assert export.main(["--scorm", str(tmp_path / "lesson.zip"), "--step", "1", "--lock", "T"]) == 0
    folder = tmp_path / "unzipped"
    zipfile.ZipFile(tmp_path / "lesson.zip").extractall(folder)
    resource = ET.parse(folder / "imsmanifest.xml").getroot().find(
        "cp:resources/cp:resource", {"cp": scorm.CP})
    files = {"player.html": PLAYER, "stage.html": STAGE.format(launch=resource.get("href"))}

    def serve(route):
        name = route.request.url.removeprefix(f"{LMS}/").split("#")[0].split("?")[0]
        path = folder / name
        if name in files:
            route.fulfill(content_type="text/html", body=files[name])
        elif path.is_file() and folder in path.resolve().parents:
            route.fulfill(content_type="text/html", body=path.read_bytes())
        else:
            route.fulfill(status=404, body="")

    p = new_page(block_network=True, viewport=(1280, 1000))
    p.pg.route(f"{LMS}/**", serve)  # after local_only's: Playwright asks the last route registered first
    p.pg.goto(f"{LMS}/player.html")
    p.pg.wait_for_function("() => document.querySelector('iframe').contentDocument?.querySelector('iframe')")
    p.frame = p.pg.wait_for_selector("iframe").content_frame().wait_for_selector("iframe").content_frame()
    lp.wait_ready(p.frame)
    yield p
    assert p.errors == [], f"browser console errors: {p.errors}"
    assert p.blocked == [], f"the page asked the network for {p.blocked}"


def calls(p):
    return [tuple(c) for c in p.pg.evaluate("() => window.calls")]


def test_the_package_reports_to_a_scorm_platform(platform):
    p, frame = platform, platform.frame
    s = lp.state(frame)
    assert (s["step"], s["lock"]) == (1, ["T"]), "the page in the package opens the exported lesson"
    assert calls(p) == [("LMSInitialize", ""), ("LMSGetValue", "cmi.core.lesson_status"),
                        ("LMSSetValue", "cmi.core.lesson_status", "incomplete"), ("LMSCommit", "")]
    # The task of step 1: the second class dragged above the first (its end written whole, as a script may).
    frame.evaluate(f"(z) => {{ const m = ({lp.FIND})('lesson'); m.state = {{...m.state, z}}; }}", [2, 3, 0.1])
    lp.wait_until(lambda: ("LMSSetValue", "cmi.core.lesson_status", "completed") in calls(p))
    assert calls(p)[4:] == [("LMSSetValue", "cmi.core.lesson_status", "completed"), ("LMSCommit", "")]
    # Done again (undone, then done) is no second report; the page leaving finishes the session.
    frame.evaluate(f"(z) => {{ const m = ({lp.FIND})('lesson'); m.state = {{...m.state, z}}; }}", [2, 1, 0.1])
    frame.evaluate(f"(z) => {{ const m = ({lp.FIND})('lesson'); m.state = {{...m.state, z}}; }}", [2, 4, 0.1])
    lp.settled(frame)
    p.pg.evaluate("() => { document.querySelector('iframe').contentDocument.querySelector('iframe').remove(); }")
    lp.wait_until(lambda: calls(p)[-1] == ("LMSFinish", ""))
    (timespan,) = [c for c in calls(p)[6:] if c[1] == "cmi.core.session_time"]
    assert calls(p)[6:] == [timespan, ("LMSFinish", "")]
    assert re.fullmatch(r"[0-9]{4}:[0-5][0-9]:[0-5][0-9]\.[0-9]{2}", timespan[2]), timespan  # SCORM's CMITimespan
