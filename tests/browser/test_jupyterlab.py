"""examples/notebook.ipynb in a real JupyterLab (pip's jupyterlab), driven by Chromium with no network.

nbclient only proves that the notebook runs; the claims here are about the page a person sees: after
"Run all" the page shows what Python set last, a drag reaches `explainer.lesson`, and a change typed in a
new cell reaches the page at once. Every request that is not to the local Jupyter server is refused.
"""

import ast
import json
import os
import secrets
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.browser import chromium
from tests.browser import lessonpage as lp
from tests.browser.conftest import ROOT, free_port, wait_serving

NOTEBOOK = ROOT / "examples" / "notebook.ipynb"
SERVER = ("http://127.0.0.1", "ws://127.0.0.1")  # the JupyterLab server, loaded beside chromium.LOCAL
# No "Jupyter news?" toast (it would ask the web), and every cell stays in the DOM even when scrolled away.
SETTINGS = {"@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
            "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"}}
NOTEBOOK_JS = """() => { const w = window.jupyterapp?.shell.currentWidget;
  return w && w.content && w.sessionContext ? w : null; }"""


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory):
    """`python -m jupyterlab` on a free local port, in a folder holding a copy of the example notebook."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(NOTEBOOK, root / "notebook.ipynb")
    state = root / ".state"
    for plugin, values in SETTINGS.items():
        path = state / "settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port, token = free_port(), secrets.token_hex(16)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "JUPYTER_CONFIG_DIR": str(state / "config"), "JUPYTER_RUNTIME_DIR": str(state / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(state / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(state / "ws"),
           "IPYTHONDIR": str(state / "ipython")}
    env.pop("JUPYTER_TOKEN", None)
    log = (root / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}", "--port-retries=0",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", "--allow-root",
         "--LabApp.extension_manager=readonly", "--ServerApp.jpserver_extensions=jupyter_server_terminals=False",
         "--LabApp.expose_app_in_browser=True"], env=env, cwd=root, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_serving(f"{base}/api/kernelspecs?token={token}", alive=lambda: proc.poll() is None,
                 log=lambda: (root / "server.log").read_text()[-3000:], timeout=90)
    yield f"{base}/lab/tree/notebook.ipynb?token={token}&reset"
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="module")
def browser(real_browser):
    """JupyterLab in the whole Chromium, the browser a notebook's reader uses (conftest.py `real_browser`)."""
    return real_browser


@pytest.fixture(scope="module")
def lab(browser, jupyterlab):
    """The notebook open in JupyterLab, every cell run, the explainer drawn; every non-local request refused."""
    context = browser.new_context(service_workers="block", viewport={"width": 1400, "height": 1000})
    blocked, errors = [], []
    chromium.local_only(context, *SERVER, refused=blocked)
    pg = context.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(jupyterlab)
    pg.wait_for_function(f"""() => {{ const w = ({NOTEBOOK_JS})(); const k = w?.sessionContext.session?.kernel;
        return !!k && k.status === 'idle' && w.content.widgets.length > 0; }}""", timeout=90000)
    ran = pg.evaluate("async () => await window.jupyterapp.commands.execute('notebook:run-all-cells')")
    assert ran, "a cell of the example notebook raised"
    lp.wait_ready(pg, timeout=90000)
    pg.blocked, pg.errors = blocked, errors
    yield pg
    context.close()

RUN_JS = """async ([code, user_expressions]) => {
  const kernel = (""" + NOTEBOOK_JS + """)().sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, store_history: false, user_expressions });
  const late = (done) => setTimeout(() => done({ status: `no answer in 60 s (kernel ${kernel.status})` }), 60000);
  return await Promise.race([future.done.then((msg) => msg.content), new Promise(late)]);
}"""


def run_cell(pg, code, value="None"):
    """Run `code` in the notebook's kernel as a cell's code is sent, then return `value` evaluated after it, or fail
    with the error either raised. The value comes back in the kernel's reply (a user expression), not as printed
    output: a print's stream message was sometimes not among the request's messages (about one run in six)."""
    reply = pg.evaluate(RUN_JS, [code, {"value": f"__import__('json').dumps({value})"}])
    assert reply["status"] == "ok", f"{code!r} in the kernel: {reply}"
    result = reply["user_expressions"]["value"]
    assert result["status"] == "ok", f"{value!r} in the kernel: {result}"
    return json.loads(ast.literal_eval(result["data"]["text/plain"]))


def test_the_page_shows_what_python_set_last(lab):
    # The notebook's last changes: explainer.lesson.T = 2.0 (after Explainer(lesson=Lesson(T=0.5))), then 20
    # gradient steps at η = 1 (its "Watch it learn" cell), which the page shows as Python's Lesson computes them.
    from app.state import Lesson

    want = Lesson(T=2.0, learning_rate=1.0)
    want.step(20)
    try:  # the kernel runs the notebook's cells: a loaded machine took more than 60 s twice
        lp.wait_until(lambda: lp.state(lab)["z"] == want.logits, timeout=120)
    except TimeoutError:
        s = lp.state(lab)
        pytest.fail(f"the page shows z = {s['z']} at T = {s['T']}, η = {s['lr']}; the notebook's steps give "
                    f"{want.logits}")
    lp.settled(lab)
    assert lp.state(lab)["T"] == 2.0 and lp.data(lab, "settings")["T"] == [2.0]
    np.testing.assert_allclose(lp.data(lab, "probs")["p"], want.probabilities(), rtol=1e-12)
    assert lab.blocked == [], f"the notebook asked the network for {lab.blocked}"


def test_a_drag_reaches_the_lesson_and_python_reaches_the_page(lab):
    lab.evaluate(f"() => Bokeh.index.find_one(({lp.FIND})('logit_figure')).el.scrollIntoView()")
    before = lp.state(lab)["z"]
    lp.drag(lab, 2, -60)
    dragged = lp.state(lab)["z"]
    assert dragged[2] > before[2] + 0.5 and dragged[:2] == before[:2]
    # Panel's notebook comm sends the page's events after a short debounce: ask until the kernel has it.
    deadline = time.monotonic() + 20
    while (kernel := run_cell(lab, "", "explainer.lesson.logits")) != dragged:
        assert time.monotonic() < deadline, f"the drag to {dragged} never reached explainer.lesson: {kernel}, " \
                                            f"and the page now holds {lp.state(lab)['z']}"
    assert run_cell(lab, "explainer.lesson.T = 0.25", "explainer.lesson.T") == 0.25
    lp.wait_state(lab, "(s) => s.T === 0.25")
    assert lp.data(lab, "settings")["T"] == [0.25]
    assert lab.blocked == [] and lab.errors == [], (lab.blocked, lab.errors)
