"""How heavy is the exported file, and how soon can a learner drag? A script, not a test.

    python tests/benchmarks/bench_export.py [-n 5]

Exports the default lesson, then opens it N times in Chromium (fresh context each time, every non-file
request blocked) and measures time to interactive: from the start of `page.goto` until the `logits` source
exists and its points have screen coordinates (tests/browser/lessonpage.wait_drawn). The peer baseline is
the smallest comparable page: Bokeh `file_html` with inline resources and one plot whose three points come
from a source also named `logits`, so the same readiness check applies. Runs alternate between the two
pages after one warm-up of each, so drift on a busy machine hits both alike.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def baseline_html():
    """A minimal peer page: one Bokeh plot, three points from a source named `logits`, inline resources."""
    from bokeh.document import Document
    from bokeh.embed import file_html
    from bokeh.models import ColumnDataSource
    from bokeh.plotting import figure

    from app.export import OwnOnly  # INLINE without the CDN script Panel registers once imported

    source = ColumnDataSource({"x": [0, 1, 2], "z": [2.0, 1.0, 0.1]}, name="logits")
    fig = figure(width=500, height=380, title="baseline")
    fig.scatter("x", "z", source=source, size=16)
    doc = Document()
    doc.add_root(fig)
    return file_html(doc, OwnOnly(), title="baseline")


def time_to_interactive(browser, uri, local):
    """Milliseconds from goto to a draggable first frame, and the requests refused on the way."""
    from tests.browser import lessonpage as lp

    context = browser.new_context(viewport={"width": 1280, "height": 960})
    blocked = []

    def route(r):
        if r.request.url.startswith(local):
            return r.continue_()
        blocked.append(r.request.url)
        return r.abort()

    page = context.new_page()
    page.route("**/*", route)
    t0 = time.perf_counter()
    page.goto(uri)
    lp.wait_drawn(page)
    ms = (time.perf_counter() - t0) * 1e3
    context.close()
    return ms, blocked


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=5, help="timed page loads per page (default 5)")
    args = ap.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from app import Lesson
    from app.export import write_page
    from tests.browser import chromium

    if chromium.executable() is None:
        sys.exit("bench_export: no system chromium on PATH")

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        explainer = write_page(Lesson(), Path(tmp) / "explainer.html")
        export_ms = (time.perf_counter() - t0) * 1e3
        baseline = Path(tmp) / "baseline.html"
        baseline.write_text(baseline_html(), encoding="utf-8")
        pages = {"explainer (default export)": explainer, "Bokeh one-plot baseline": baseline}
        times = {name: [] for name in pages}
        blocked = []

        with sync_playwright() as pw:
            browser = chromium.launch(pw)
            version = browser.version
            for run in range(args.n + 1):  # run 0 warms up each page and is not counted
                for name, path in pages.items():
                    ms, refused = time_to_interactive(browser, path.as_uri(), chromium.LOCAL)
                    blocked += refused
                    if run:
                        times[name].append(ms)
            browser.close()

        mb = {name: path.stat().st_size / 1e6 for name, path in pages.items()}

    print(f"export of the default lesson: {mb['explainer (default export)']:.2f} MB in {export_ms:.0f} ms")
    print(f"time to interactive, Chromium {version} headless, network blocked, "
          f"{args.n} loads each after 1 warm-up (alternating)")
    print(f"{'page':<28}{'size MB':>9}{'median ms':>11}{'max ms':>9}")
    rows = {name: (mb[name], statistics.median(t), max(t)) for name, t in times.items()}
    for name, (size, med, worst) in rows.items():
        print(f"{name:<28}{size:>9.2f}{med:>11.0f}{worst:>9.0f}")
    (a, b) = rows.values()
    print(f"{'ratio explainer / baseline':<28}{a[0] / b[0]:>9.2f}{a[1] / b[1]:>11.2f}{a[2] / b[2]:>9.2f}")
    print(f"requests refused: {len(blocked)}" + (f" {blocked[:3]}" if blocked else ""))
    return 1 if blocked else 0


if __name__ == "__main__":
    sys.exit(main())
