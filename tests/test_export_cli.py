"""`python -m app.export` and `softmax-explainer export` as a person runs them: in a subprocess.

Success writes one self-contained page holding the explainer and prints one line. Every bad option gives a
clear `error:` line on stderr (no traceback), a non-zero exit code and no file at all. Class names end up
in the page as text, never as markup.

The processes start together (a module fixture) and each test reads its own result. A cold start costs
about a second of CPU (mostly importing Panel), so the rarer cases call `app.export.main` in this process.
"""

import base64
import errno
import gzip
import html
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import numpy as np
import pytest

from app import document, fields
from tests.bokeh_json import model, models_in

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = {name for names in document.CONTRACT.values() for name in names} | set(document.control_names())
EVIL = "<img src=x onerror=alert(1)>"
SCRIPT = "</script><script>alert(2)</script>"
ERROR_LINE = re.compile(r"^(python -m app\.export|softmax-explainer export): error: \S.*$")

# name: (options, words the error line must contain); each runs as its own `python -m app.export`
# A refusal by the argument parser and one by the lesson's rules, each in a process of its own (its exit code and
# its stderr as a shell sees them); the rest in this process, where each costs no start of Python.
BAD = {
    "unknown_class_name": (["--true-class", "zebra"], ["--true-class", "zebra"]),
    "non_numeric_logits": (["--logits", "1,x"], ["--logits", "1,x"]),
}
MORE_BAD = {
    "T_zero": (["-T", "0"], ["--temperature", "0.01"]),
    "T_out_of_range": (["-T", "1000"], ["--temperature", "100"]),
    "nan_logit": (["--logits", "nan,1,2"], ["nan"]),
    "mismatched_counts": (["--logits", "1,2", "--classes", "a,b,c"], ["3 class names", "2 logits"]),
    "duplicate_class_names": (["--classes", "cat,dog,cat"], ["differ"]),
    "one_class": (["--logits", "1"], ["2 to 10"]),
    "true_class_index_out_of_range": (["--true-class", "3"], ["'3'"]),
    "T_negative": (["-T", "-0.5"], ["0.01"]),
    "T_nan": (["-T", "nan"], ["nan"]),
    "infinite_logit": (["--logits", "1,inf,2"], ["inf"]),
    "one_named_class": (["--logits", "1", "--classes", "a"], []),
    "empty_class_name": (["--classes", "cat,,bird"], ["--classes", "blank"]),
    "bidi_class_name": (["--classes", "cat,d\u202eog,bird"], ["--classes", "U+202E"]),
    "look_alike_names": (["--classes", "cat,cat\u200b,bird"], ["--classes", "look the same"]),
    "braille_blank_after_a_name": (["--classes", "cat,cat\u2800,bird"], ["--classes", "look the same"]),
    "hangul_filler_for_a_space": (["--classes", "a b,a\u3164b,c"], ["--classes", "look the same"]),
    "long_class_name": (["--classes", "x" * 300 + ",b,c"], ["--classes", "at most 40"]),
    "superscript_true_class": (["--true-class", "²"], ["--true-class", "'²'"]),
    "bad_label_smoothing": (["--label-smoothing", "0.7"], ["--label-smoothing", "0.5"]),
    "eleven_classes": (["--logits", ",".join(["0"] * 11)], ["2 to 10"]),
}
UNWRITABLE = {"unwritable_proc_path": "/proc/nope/out.html"}
MORE_UNWRITABLE = {"missing_directory": "{tmp}/no/such/dir/out.html", "output_is_a_directory": "{tmp}",
                   "empty_path": ""}


def console_script():
    """The softmax-explainer command that installing the project put next to this interpreter."""
    here = Path(sysconfig.get_path("scripts")) / "softmax-explainer"
    return str(here) if here.is_file() else shutil.which("softmax-explainer")


def _env():
    """Run this checkout's code, whatever (possibly stale) install the environment holds."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


class Run:
    """One command started in its own folder; `wait()` fills rc, stdout and stderr."""

    def __init__(self, argv, out=None, folder=None, env=None):
        self.out, self.folder = Path(out or "-"), folder
        self.proc = subprocess.Popen(argv, cwd=folder, env={**_env(), **(env or {})}, text=True, encoding="utf-8",
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def wait(self):
        self.stdout, self.stderr = self.proc.communicate(timeout=120)
        self.rc = self.proc.returncode
        return self


class InProcess:
    """`app.export.main(argv)` in this process, read like a Run."""

    def __init__(self, options, out, folder, capsys):
        from app.export import main

        self.out, self.folder = Path(out), folder
        try:
            self.rc = main([out, *options])
        except SystemExit as e:
            self.rc = e.code
        self.stdout, self.stderr = capsys.readouterr()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Start every export of this module at once; wait for all of them."""
    module = [sys.executable, "-m", "app.export"]
    script = console_script()
    started = {}

    def start(name, command, options, out=None, env=None):
        folder = tmp_path_factory.mktemp(name)
        out = (out or "{tmp}/explainer.html").format(tmp=folder)
        started[name] = Run([*command, out, *options], out, folder, env)

    start("default", module, [])
    start("scenario", module, ["--logits", "3,1,0.2", "--classes", "a,b,c", "--true-class", "b", "-T", "0.5"])
    start("injection", module, ["--classes", f"{EVIL},b,{SCRIPT}"])
    if script:
        start("console_script", [script, "export"], ["--lang", "ko"])
        started["console_script_usage"] = Run([script])
    for name, (options, _) in BAD.items():
        start(name, module, options)
    for name, out in UNWRITABLE.items():
        start(name, module, [], out=out)
    # A file name that is not UTF-8, printed to a stdout that refuses what it cannot encode.
    start("non_utf8_name", module, [], out="{tmp}/" + os.fsdecode(b"\xff.html"),
          env={"PYTHONIOENCODING": "utf-8:strict"})
    return {name: run.wait() for name, run in started.items()}


def page_models(path):
    """(type, attributes) of every model in the Bokeh document an exported page embeds."""
    text = Path(path).read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" id="[^"]+">(.*?)</script>', text, re.S)
    return models_in(json.loads(html.unescape(m.group(1))))  # Bokeh HTML-escapes the JSON; its JS unescapes it


def column(source, key):
    """One column of a serialized ColumnDataSource as a list (plain list or Bokeh's ndarray encoding)."""
    v = dict(source["data"]["entries"])[key]
    if isinstance(v, dict) and v.get("type") == "ndarray":
        raw = v["array"]["data"] if isinstance(v["array"], dict) else v["array"]
        if isinstance(raw, list):
            return raw
        raw = base64.b64decode(raw)
        raw = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        return np.frombuffer(raw, dtype=np.dtype(v["dtype"]).newbyteorder("<")).tolist()
    return list(v)


def lesson_of(models):
    """The lesson an exported page starts from: its `wire` model's JSON text (the page draws every frame from it,
    the first one included; the readouts and sources in the file are empty)."""
    return json.loads(model(models, "wire")["text"])


def assert_wrote_one_page(run):
    assert run.rc == 0, run.stderr
    assert run.stderr == "", run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wrote ") and str(run.out) in lines[0], run.stdout
    assert sorted(p.name for p in run.folder.iterdir()) == [run.out.name], "no temporary file left behind"
    models = page_models(run.out)
    names = {a.get("name") for _, a in models} | {c for _, a in models for c in (a.get("css_classes") or [])}
    assert CONTRACT <= names, CONTRACT - names
    text = run.out.read_text(encoding="utf-8")
    assert not re.search(r"""<(script|link)[^>]+(src|href)=["']?https?:""", text), "the page must not need a network"
    return models


def test_default_export_writes_the_explainer(runs):
    models = assert_wrote_one_page(runs["default"])
    assert lesson_of(models)["z"] == [2.0, 1.0, 0.1]
    # No frame in the file: the page draws it (its 0.417 nats: tests/browser/test_lesson.py on an export).
    assert model(models, "readout-loss").get("text", "") == "" and column(model(models, "logits"), "z") == []


def test_console_script_exports(runs):
    assert "console_script" in runs, "installing the project (pip install -e .) puts softmax-explainer beside python"
    models = assert_wrote_one_page(runs["console_script"])
    assert [label for _, label in model(models, "true_class")["options"]] == ["고양이", "개", "새"]


def test_console_script_without_command_prints_usage(runs):
    run = runs["console_script_usage"]
    assert run.rc != 0 and "usage: softmax-explainer export" in run.stderr and "Traceback" not in run.stderr


def test_prepared_scenario_lands_in_the_initial_data(runs):
    models = assert_wrote_one_page(runs["scenario"])
    lesson = lesson_of(models)
    assert lesson["z"] == lesson["initial"] == [3.0, 1.0, 0.2] and lesson["names"] == ["a", "b", "c"]
    assert lesson["T"] == 0.5 and lesson["y"] == 1
    picker = model(models, "true_class")
    assert picker["value"] == "1" and [label for _, label in picker["options"]] == ["a", "b", "c"]


def test_class_names_are_text_not_markup(runs):
    run = runs["injection"]
    models = assert_wrote_one_page(run)
    text = run.out.read_text(encoding="utf-8")
    for raw in (EVIL, SCRIPT, "<img src=x", "<script>alert"):
        assert raw not in text, f"raw {raw!r} in the page's text"
    # The lesson holds the names as typed; the page escapes them in every readout it draws
    # (tests/js/lessons.test.mjs, tests/browser/test_embed.py).
    assert lesson_of(models)["names"] == [EVIL, "b", SCRIPT]
    # Widgets and axis labels take plain text: the name itself, which they show literally.
    assert [label for _, label in model(models, "true_class")["options"]] == [EVIL, "b", SCRIPT]


def _assert_refused(run, words):
    assert run.rc not in (0, None), f"exit code {run.rc}"
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stdout == "", run.stdout
    lines = run.stderr.strip().splitlines()
    assert lines and ERROR_LINE.match(lines[-1]), run.stderr
    assert len(lines) == 1, run.stderr
    for word in words:
        assert word in lines[-1], (word, lines[-1])
    assert not run.out.is_file(), "no file may be written"
    if run.folder.is_dir():
        assert list(run.folder.iterdir()) == [], "no temporary file left behind"


@pytest.mark.parametrize("case", BAD)
def test_bad_option_is_refused_in_one_error_line(runs, case):
    _assert_refused(runs[case], BAD[case][1])


@pytest.mark.parametrize("case", UNWRITABLE)
def test_unwritable_path_is_refused_in_one_error_line(runs, case):
    _assert_refused(runs[case], ["cannot write"])


@pytest.mark.parametrize("case", MORE_BAD)
def test_more_bad_options_are_refused(case, tmp_path, capsys):
    _assert_refused(InProcess(MORE_BAD[case][0], str(tmp_path / "explainer.html"), tmp_path, capsys),
                    MORE_BAD[case][1])


@pytest.mark.parametrize("case", MORE_UNWRITABLE)
def test_more_unwritable_paths_are_refused(case, tmp_path, capsys):
    _assert_refused(InProcess([], MORE_UNWRITABLE[case].format(tmp=tmp_path), tmp_path, capsys), ["cannot write"])


def test_a_tex_looking_class_name_stays_text_and_adds_no_mathjax():
    """"$$\\alpha$$" is a name, not maths: no TeX engine inlined (it would add 1.8 MB), shown as typed."""
    from app.export import page_html
    from app.state import Lesson

    html = page_html(Lesson(class_names=["$$\\alpha$$", "b", "c"]))
    assert "BEGIN bokeh-mathjax" not in html
    assert len(html.encode()) < 3.2e6  # three languages' strings (0.1 MB); MathJax would add 1.8 MB
    assert "$$\\\\alpha$$" in html  # the name, JSON-escaped, in the document's data


# ---- Writing a file loses nothing (app/files.py). No test touches a real device file. ----


# The page is a pure function of the lesson's state (app/export.py page_html builds it from lesson.state() alone),
# and these tests are about what reaches the disk: a page is built once per distinct lesson in this file.
PAGES = {}


@pytest.fixture(autouse=True)
def page_once_per_lesson(monkeypatch):
    from app import export

    build = export.page_html

    def page_html(lesson):
        key = json.dumps(lesson.state(), sort_keys=True)
        if key not in PAGES:
            PAGES[key] = build(lesson)
        return PAGES[key]

    monkeypatch.setattr(export, "page_html", page_html)


def export_to(path, capsys, *options):
    from app.export import main

    try:
        rc = main([str(path), *options])
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def test_negative_first_logit_in_the_natural_spelling(tmp_path, capsys):
    # Regression: argparse read "-2,1,0" as an option ("expected one argument").
    rc, out, err = export_to(tmp_path / "a.html", capsys, "--logits", "-2,1,0", "-T", "-0.5")
    assert rc == 2 and "--temperature" in err and "0.01" in err  # -T -0.5 reaches the range check
    rc, out, err = export_to(tmp_path / "a.html", capsys, "--logits", "-2,1,0")
    assert rc == 0, err
    assert lesson_of(page_models(tmp_path / "a.html"))["z"] == [-2.0, 1.0, 0.0]


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path, capsys):
    target = tmp_path / "real.html"
    target.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(target.name)
    rc, out, err = export_to(link, capsys)
    assert rc == 0, err
    assert link.is_symlink() and link.resolve() == target
    assert "<html" in target.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "real.html"]


def test_a_private_file_keeps_its_permissions(tmp_path, capsys):
    out_file = tmp_path / "private.html"
    out_file.write_text("old")
    out_file.chmod(0o640)
    assert export_to(out_file, capsys)[0] == 0
    assert stat.S_IMODE(out_file.stat().st_mode) == 0o640
    assert "<html" in out_file.read_text(encoding="utf-8")


def test_a_new_file_is_readable_like_any_new_file(tmp_path, capsys):
    import os

    out_file = tmp_path / "new.html"
    assert export_to(out_file, capsys)[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out_file.stat().st_mode) == 0o666 & ~umask


def test_a_read_only_file_is_kept_unless_asked(tmp_path, capsys):
    out_file = tmp_path / "ro.html"
    out_file.write_text("old")
    out_file.chmod(0o444)
    rc, out, err = export_to(out_file, capsys)
    assert rc == 2 and "read-only" in err and "--overwrite" in err and err.count("\n") == 1
    assert out_file.read_text() == "old"
    assert export_to(out_file, capsys, "--overwrite")[0] == 0
    assert stat.S_IMODE(out_file.stat().st_mode) == 0o444 and "<html" in out_file.read_text(encoding="utf-8")


def test_a_fifo_is_refused(tmp_path, capsys):
    import os

    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    rc, out, err = export_to(fifo, capsys)
    assert rc == 2 and "not a regular file" in err and err.count("\n") == 1
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.html"]


def test_hard_links_are_not_split(tmp_path, capsys):
    import os

    first = tmp_path / "first.html"
    first.write_text("old")
    os.link(first, tmp_path / "second.html")
    rc, out, err = export_to(first, capsys)
    assert rc == 2 and "hard links" in err
    assert first.read_text() == (tmp_path / "second.html").read_text() == "old"



# ---- Replacing a file keeps its extended attributes and ACL (app/files.py copy_xattrs). ----


def test_replacing_a_file_keeps_its_extended_attributes(tmp_path, capsys):
    out_file = tmp_path / "noted.html"
    out_file.write_text("old")
    os.setxattr(out_file, "user.course", b"ml-101")
    rc, out, err = export_to(out_file, capsys)
    assert rc == 0, err
    assert "<html" in out_file.read_text(encoding="utf-8")
    assert os.getxattr(out_file, "user.course") == b"ml-101"


def getfacl(path):
    return subprocess.run(["getfacl", "--omit-header", str(path)], capture_output=True, text=True, check=True).stdout


def test_replacing_a_file_keeps_its_acl_and_does_not_widen_group_access(tmp_path, capsys):
    assert shutil.which("setfacl"), "the Debian package acl provides setfacl (.ci/run installs it)"
    out_file = tmp_path / "shared.html"
    out_file.write_text("old")
    out_file.chmod(0o640)
    subprocess.run(["setfacl", "-m", "user:nobody:rw-", str(out_file)], check=True)
    before = getfacl(out_file)
    # The mode's group bits now show the ACL mask (rw-); a plain chmod to that mode would give the group rw.
    assert "user:nobody:rw-" in before and "group::r--" in before and stat.S_IMODE(out_file.stat().st_mode) == 0o660
    rc, out, err = export_to(out_file, capsys)
    assert rc == 0, err
    assert "<html" in out_file.read_text(encoding="utf-8")
    assert getfacl(out_file) == before


def test_an_attribute_that_cannot_be_copied_stops_the_write(tmp_path, capsys, monkeypatch):
    out_file = tmp_path / "noted.html"
    out_file.write_text("old")
    os.setxattr(out_file, "user.course", b"ml-101")

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "setxattr", refuse)
    rc, out, err = export_to(out_file, capsys)
    assert rc == 2 and "cannot write" in err and "not permitted" in err and err.count("\n") == 1
    assert out_file.read_text() == "old" and os.getxattr(out_file, "user.course") == b"ml-101"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["noted.html"]


def test_a_filesystem_without_attributes_is_no_obstacle(tmp_path, capsys, monkeypatch):
    out_file = tmp_path / "plain.html"
    out_file.write_text("old")

    def unsupported(*args, **kwargs):
        raise OSError(errno.ENOTSUP, "Operation not supported")

    monkeypatch.setattr(os, "listxattr", unsupported)
    rc, out, err = export_to(out_file, capsys)
    assert rc == 0, err
    assert "<html" in out_file.read_text(encoding="utf-8")


# ---- Paths: a folder's name is refused, every path is shown on one printable line. ----


@pytest.mark.parametrize("name", ["new.html/", "old.html/", "new.html/.", "."])
def test_a_path_naming_a_folder_is_refused(name, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.html").write_text("old")
    rc, out, err = export_to(name, capsys)
    assert rc == 2 and err.count("\n") == 1 and "names a folder" in err and name in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html"]
    assert (tmp_path / "old.html").read_text() == "old"


@pytest.mark.parametrize("raw, shown", [("a\nb", "a\\nb"), ("a\x1b[31mb", "a\\x1b[31mb"),
                                        (os.fsdecode(b"a\xffb"), "a\\xffb")])
def test_a_path_is_shown_escaped_on_one_line(raw, shown, tmp_path, capsys):
    rc, out, err = export_to(tmp_path / f"{raw}.html", capsys)
    assert rc == 0, err
    assert out.count("\n") == 1 and out.startswith("wrote ") and f"{shown}.html (" in out, out
    read_only = tmp_path / f"{raw}.html"
    read_only.chmod(0o444)
    rc, out, err = export_to(read_only, capsys)
    assert rc == 2 and err.count("\n") == 1 and f"{shown}.html: it is read-only" in err, err
    rc, out, err = export_to(tmp_path / raw / "out.html", capsys)
    assert rc == 2 and err.count("\n") == 1 and err.count(f"{shown}") == 2 and "does not exist" in err, err
    assert "\x1b" not in out + err


def test_a_non_utf8_name_is_written_to_a_strict_utf8_stdout(runs):
    run = runs["non_utf8_name"]
    assert run.rc == 0 and run.stderr == "", run.stderr
    assert run.stdout.startswith("wrote ") and run.stdout.count("\n") == 1
    assert f"{run.folder}/\\xff.html (" in run.stdout, run.stdout
    assert "<html" in run.out.read_text(encoding="utf-8")


# ---- Ctrl-C: one line, exit code 130, nothing left behind. ----

# Put on PYTHONPATH, this sitecustomize touches $MARK when the process starts importing Bokeh, so the signal
# lands while the command runs rather than at a guessed moment.
MARK_BOKEH = """
import os, sys

class Mark:
    def find_spec(self, name, path=None, target=None):
        if name == "bokeh" and not os.path.exists(os.environ["MARK"]):
            open(os.environ["MARK"], "w").close()
            import time
            time.sleep(30)  # held inside the import until the test's Ctrl-C arrives (a warm import takes 0.2 s)
        return None

sys.meta_path.insert(0, Mark())
"""


def test_ctrl_c_leaves_one_line_and_no_file(tmp_path):
    script = console_script()
    assert script, "installing the project (pip install -e .) puts softmax-explainer beside python"
    hook, folder = tmp_path / "hook", tmp_path / "out"
    hook.mkdir()
    folder.mkdir()
    (hook / "sitecustomize.py").write_text(MARK_BOKEH)
    mark = tmp_path / "bokeh-import-started"
    env = {**_env(), "MARK": str(mark)}
    env["PYTHONPATH"] = os.pathsep.join([str(hook), env["PYTHONPATH"]])
    # A suite started in the background (`cmd &` in a script) ignores SIGINT, and a child inherits that: the
    # command gets Ctrl-C's default back, as it has in a terminal.
    proc = subprocess.Popen([script, "export", "explainer.html"], cwd=folder, env=env, text=True,
                            encoding="utf-8", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not mark.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert mark.exists(), "the command never started importing Bokeh"
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, (proc.returncode, stderr)
    assert stderr.splitlines() == ["softmax-explainer export: interrupted; nothing was written"], stderr
    assert stdout == ""
    assert list(folder.iterdir()) == [], "no page and no temporary file"


def test_ctrl_c_while_writing_removes_the_temporary_file(tmp_path, capsys, monkeypatch):
    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    try:
        rc, out, err = export_to(tmp_path / "explainer.html", capsys)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped export.main")  # uncaught, it would stop the whole test session
    assert rc == 130 and out == ""
    assert err == "python -m app.export: interrupted; nothing was written\n"
    assert list(tmp_path.iterdir()) == []


# ---- Options: given once, --true-class cleaned like a class name, refused values shown short. ----


@pytest.mark.parametrize("options, named", [
    (["-T", "0.5", "--temperature", "2"], "--temperature"),
    (["--temperature=0.5", "-T", "0.5"], "--temperature"),
    (["--lang", "ko", "--lang", "en"], "--lang"),
    (["--lang=ko", "--lang=ko"], "--lang"),
    (["--lecture", "--lecture"], "--lecture"),
    (["--logits", "1,2", "--logits", "-1,2"], "--logits"),
    (["--true-class", "0", "--true-class", "1"], "--true-class"),
])
def test_a_repeated_option_is_refused(options, named, tmp_path, capsys):
    rc, out, err = export_to(tmp_path / "explainer.html", capsys, *options)
    assert rc == 2 and err.count("\n") == 1 and ERROR_LINE.match(err.rstrip("\n")), err
    assert named in err and "more than once" in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("given, y", [(" dog", 1), ("dog\u00a0", 1), ("cafe\u0301", 0), ("café", 0),
                                      ("ｄｏｇ", 1), ("1", 1), (" 1 ", 1)])
def test_the_true_class_is_cleaned_like_the_class_names(given, y, tmp_path, capsys):
    rc, out, err = export_to(tmp_path / "a.html", capsys, "--classes", "café,dog", "--true-class", given)
    assert rc == 0, err
    assert lesson_of(page_models(tmp_path / "a.html"))["y"] == y


HUGE = "x" * 100_000


@pytest.mark.parametrize("options", [["--classes", f"{HUGE},b"], ["--classes", f"{HUGE}\u202e,b"],
                                     ["--classes", f"b,{HUGE}\u202e"], ["--true-class", HUGE],
                                     ["--lang", HUGE], ["--logits", f"1,{HUGE}"], ["-T", HUGE]])
def test_a_huge_refused_value_is_shown_by_its_start_and_length(options, tmp_path, capsys):
    rc, out, err = export_to(tmp_path / "explainer.html", capsys, *options)
    assert rc == 2 and err.count("\n") == 1 and len(err) < 300, (len(err), err[:400])
    assert options[0] in err and "x" * 41 not in err, err
    assert list(tmp_path.iterdir()) == []


# ---- Every option's refusal is one true line (issue 36: `--seed -1` said "must be a whole number", `--top-p nan`
# suggested -2). Numbers are valid class names, so --classes is not among these. ----

ODD_NUMBERS = ["-1", "nan", "inf", "-inf", "1e400", "9" * 30, "\u0663", "\u00b2"]  # ٣: an Arabic-Indic three
VALUED = [f for f in fields.FIELDS if f.cli and f.kind not in ("flag", "names")]


@pytest.mark.parametrize("f", VALUED, ids=lambda f: f.cli.name)
def test_every_option_refuses_an_odd_number_in_one_true_line(f, tmp_path, capsys):
    from app.export import parser, short

    for value in ODD_NUMBERS:
        given = f"0,{value}" if f.kind == "logits" else value
        if f.kind == "logits" and value == "-1":
            continue  # a logit of -1 is fine
        rc, out, err = export_to(tmp_path / "explainer.html", capsys, f.cli.name, given)
        line = err.rstrip("\n")
        assert rc == 2 and err.count("\n") == 1 and ERROR_LINE.match(line), (given, err)
        assert f.cli.name in line and line.count(short(given)) == 1, line
        assert list(tmp_path.iterdir()) == []
        if f.kind in ("real", "count"):
            lo, hi = (f"{b:,}" if f.kind == "count" else f"{b:g}" for b in f.bounds)
            assert f"from {lo} to {hi}" in line, line
            example = re.search(r"e\.g\. (\S+)", line).group(1)
            parser().parse_args(["x.html", f"{f.cli.name}={example}"])  # the example given is taken
        elif f.kind == "logits":
            assert "from -100 to 100" in line, line
        elif f.kind in ("choice", "keys"):
            assert all(c in line for c in f.choices), line
        else:
            assert "pick one of cat, dog, bird or 0..2" in line, line


@pytest.mark.parametrize("options, says, never", [(["--seed", "-1"], "from 0 to 4,294,967,295", "whole number (got"),
                                                   (["--top-p", "nan"], "e.g. 0.9", "-2")])
def test_the_two_refusals_the_issue_found_say_what_the_option_takes(options, says, never, tmp_path, capsys):
    rc, out, err = export_to(tmp_path / "explainer.html", capsys, *options)
    assert rc == 2 and says in err and never not in err, err
