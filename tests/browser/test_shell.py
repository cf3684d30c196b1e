"""The headless shell that runs the page tests (tests/browser/chromium.py `shell`) shows the page as the whole
Chromium does: after the same link and the same drag, every view's box, every readout's text and every figure's
pixels are the same in both."""


from tests.browser import chromium
from tests.browser import lessonpage as lp
from tests.browser.conftest import Page, _missing

# Every view's model and box, each readout's text, and each figure's canvas as PNG data: what the learner sees.
SEEN = f"""() => {{
  const views = ({lp.VIEWS})().filter((v) => v.model && v.el instanceof Element && v.el.isConnected);
  const box = (el) => {{ const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].join(); }};
  return {{
    boxes: views.map((v) => `${{v.model.type}} ${{v.model.name ?? ""}} ${{box(v.el)}}`),
    texts: views.filter((v) => v.model.type === "Div").map((v) => v.model.text),
    canvases: views.filter((v) => v.canvas_view).map((v) => v.canvas_view.primary.canvas.toDataURL()),
  }}; }}"""


def seen(browser, exported):
    p = Page(browser, block_network=True, viewport=(1024, 900), own_context=True)
    try:
        p.pg.goto(f"{exported.as_uri()}#lang=ko&T=1.7&open=table")
        lp.wait_ready(p.pg)
        lp.drag(p.pg, 1, -60)
        lp.settled(p.pg)
        assert p.errors == [] and p.blocked == [], (p.errors, p.blocked)
        return lp.state(p.pg), p.pg.evaluate(SEEN)
    finally:
        p.close()


def test_the_shell_shows_the_page_as_the_whole_browser_does(browser, real_browser, exported):
    if chromium.shell() == chromium.executable():
        _missing("no chromium-headless-shell: the page tests ran in the whole Chromium")
    in_shell, in_browser = seen(browser, exported), seen(real_browser, exported)
    assert in_shell[0] == in_browser[0]  # the same lesson after the same drag
    shell_seen, browser_seen = in_shell[1], in_browser[1]
    assert len(shell_seen["boxes"]) > 100 and len(shell_seen["canvases"]) >= 3
    for what in ("boxes", "texts", "canvases"):
        assert shell_seen[what] == browser_seen[what], what
