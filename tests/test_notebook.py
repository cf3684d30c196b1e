"""examples/notebook.ipynb runs top to bottom in a real Jupyter kernel and shows the explainer.

What Panel 1.9 writes when a cell ends with a Viewer (checked with nbclient): an `execute_result` whose
`text/html` embeds the whole Bokeh document as `var docs_json = {...}`, next to an (empty)
`application/vnd.holoviews_exec.v0+json` entry whose metadata names the root. The test reads that document
back and finds the explainer's named models in it, with the lesson's T = 0.5.
"""

import json
import math
import os
from pathlib import Path

import nbformat
import pytest

from app import document
from tests.bokeh_json import models_in

nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "notebook.ipynb"
EXEC_MIME = "application/vnd.holoviews_exec.v0+json"
CONTRACT = {name for key in ("sources", "controls", "page") for name in document.CONTRACT[key]}

# Appended to the test's copy only: the kernel's copy of the page's lesson follows `lesson.T = 2.0`. (That
# the page in a real JupyterLab follows too is tests/browser/test_jupyterlab.py's job.)
PROBE = 'print("shown T =", explainer.page_state["T"])'


def _kernel_or_skip():
    from jupyter_client.kernelspec import KernelSpecManager

    if "python3" not in KernelSpecManager().find_kernel_specs():
        pytest.skip("no 'python3' Jupyter kernel spec is installed (pip install ipykernel)")


def _run(cwd, monkeypatch):
    """Execute a copy of the notebook with `cwd` as its working directory, as Jupyter would."""
    _kernel_or_skip()
    # The kernel imports this checkout's `app`, whatever (possibly stale) install the environment holds.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=120,
                            resources={"metadata": {"path": str(cwd)}}).execute()
    return nb


@pytest.fixture(scope="module")
def executed():
    """The notebook run where Jupyter runs it: from its own folder (tests/browser/test_jupyterlab.py opens it in
    a real JupyterLab)."""
    with pytest.MonkeyPatch.context() as mp:
        return _run(ROOT / "examples", mp)


def _cell(nb, first_line):
    cells = [c for c in nb.cells if c.cell_type == "code" and c.source.splitlines()[:1] == [first_line]]
    assert len(cells) == 1, f"expected one code cell whose first line is {first_line!r}"
    return cells[0]


def _stdout(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")


def _bokeh_models(html):
    """(type, attributes) of every model in the Bokeh document a Panel output embeds."""
    start = html.index("var docs_json = ") + len("var docs_json = ")
    docs, _ = json.JSONDecoder().raw_decode(html, start)
    return models_in(docs)


def test_notebook_is_stored_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert nb.nbformat == 4
    # nbformat 4.5 gives every cell an id (JupyterLab's collaboration keys cells by it). nbformat's reader makes up
    # a missing one with a warning, so the file as stored is what is read here.
    stored = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    assert ["".join(c["source"]).splitlines()[0] for c in stored if "id" not in c] == []
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source


def test_no_cell_raises(executed):
    errors = [o for c in executed.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []


def test_display_cell_carries_the_explainer_document(executed):
    cell = _cell(executed, "explainer")
    shown = [o for o in cell.outputs if o.output_type in ("execute_result", "display_data") and EXEC_MIME in o.data]
    assert len(shown) == 1, [o.output_type for o in cell.outputs]
    out = shown[0]
    assert out.metadata[EXEC_MIME]["id"], "Panel names the root it renders"
    models = _bokeh_models(out.data["text/html"])
    names = {a.get("name") for _, a in models}
    assert CONTRACT <= names, CONTRACT - names
    wire = next(a for _, a in models if a.get("name") == "wire")
    assert json.loads(wire["text"])["T"] == 0.5  # the page draws its frames from it (tests/browser/test_jupyterlab.py)


def test_probabilities_cell_reads_the_lesson(executed):
    out = _stdout(_cell(executed, "lesson = explainer.lesson"))
    # softmax([2, 1, 0.1] / 0.5) = softmax([4, 2, 0.2]) = (0.86378, 0.11690, 0.01932)
    assert "[0.864 0.117 0.019]" in out, out
    assert "L = 0.146 nats" in out, out


def test_changing_T_in_python_updates_the_lesson_and_the_page(executed):
    out = _stdout(_cell(executed, "explainer.lesson.T = 2.0"))
    # softmax([2, 1, 0.1] / 2) = softmax([1, 0.5, 0.05]) = (0.50169, 0.30429, 0.19402)
    assert "[0.502 0.304 0.194]" in out, out
    shown_T = float(_stdout(executed.cells[-1]).split("=")[1])
    assert math.isclose(shown_T, 2.0, rel_tol=1e-9)


def test_calibration_cell_shows_temperature_scaling(executed):
    out = _stdout(_cell(executed, "from app import calibration"))
    # app/calibration.py on the shipped digits (tests/test_calibration.py checks the maths against scikit-learn)
    assert "T = 1.000: accuracy 0.913, ECE 5.6%, MCE 34.8%, NLL 0.484 nats" in out, out
    assert "T = 2.358: accuracy 0.913, ECE 2.0%, MCE 24.7%, NLL 0.318 nats" in out, out
    assert "the fit's iterates: [1.0, 2.0, 2.5412, 2.3803" in out, out


def test_language_model_cell_shows_the_filters(executed):
    out = _stdout(_cell(executed, "from app import Lesson, vocabulary"))
    # app/vocabulary.py next_word on wordfreq's words (tests/browser/test_language_model.py: the page equals core)
    assert "a model that knows nothing: ln V = 10.820 nats" in out, out
    assert "{'top_k': 50}: 50 words kept, the top three ['the', 'to', 'and'] at [0.194, 0.082, 0.077]" in out, out
    assert "{'top_p': 0.5}: 15 words kept" in out, out


def test_own_logits_cell_folds_a_gpt2_sized_row(executed):
    out = _stdout(_cell(executed, "import numpy as np"))
    # app/fold.py on a seeded row (tests/test_fold.py checks every p against core's softmax of the whole row)
    assert "the 9 largest of 50,257 values; the other 50,248 folded into the rest, which holds p = 0.5869" in out, out
    assert "'class 36758'" in out and "'rest (50248)'" in out, out
    assert "pasted: [2.0, 1.0, 0.1]" in out, out
