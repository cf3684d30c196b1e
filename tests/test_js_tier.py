"""The pure JavaScript twins under `node --test` (tests/js/), on JSON fixtures that Python writes afresh.

The fixtures are made for each run (tests/js/fixtures.py, seconds), never kept: a changed twin, case, string or
oracle is compared as it is now. The tier holds the pure twins (core, rules, actions, links against Python's
answers) and the page's renderer (numbers against core's, every shown digit against tests/digits_oracle.py).
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.js import fixtures

ROOT = Path(__file__).resolve().parents[1]


def test_the_javascript_twins_agree_with_python(tmp_path):
    node = shutil.which("node")
    if node is None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail("REQUIRE_BROWSER=1 but node is missing")
        pytest.skip("node is missing")
    fixtures.write(tmp_path)
    env = {**os.environ, "FIXTURES": str(tmp_path)}
    done = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "# fail 0" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", done.stdout, re.M)
    # rules, twins, lessons, digits, calibration (38 tests) and decoding (7) ran
    assert passed and int(passed.group(1)) >= 45, done.stdout[-500:]
