"""Each look and label is set by one side: the document as Python built it against the page as it draws it.

Python builds the controls with their labels and the models with no look; the page draws the look (app/document.py
LOOK), the figures' texts and the lesson. A property both set would be applied twice, by two hands that must
agree. Read from the built document (Bokeh writes only the properties a model was given) and from every write
the page's drawing makes while it opens (a hook on BokehJS's `setv`, kept to writes made inside the page's `draw`).
"""

import json
import re

import pytest

from app.export import main
from tests.browser import lessonpage as lp

pytestmark = pytest.mark.browser

# Every setv made under the page's `draw` (a stack frame of that name: the bundle keeps its functions' names),
# recorded from the moment Bokeh loads.
RECORD = """(() => {
  window.__writes = [];
  let bokeh;
  Object.defineProperty(window, "Bokeh", { configurable: true, get: () => bokeh, set(value) {
    bokeh = value;
    let proto = value.Models.get("Title").prototype;
    while (!Object.hasOwn(proto, "setv")) proto = Object.getPrototypeOf(proto);
    const setv = proto.setv;
    proto.setv = function (attrs, options) {
      if (/at draw \\(/.test(new Error().stack)) {
        for (const [key, v] of Object.entries(attrs)) {
          window.__writes.push([this.id, this.type, key, key === "css_classes" ? Array.from(v) : null]);
        }
      }
      return setv.call(this, attrs, options);
    };
  } });
})()"""

# Not the default look, language or lesson: locks, a hidden control, a step, both views and a function's figure
# open (the default's look and labels are the same properties, in other values).
LESSON = ["--theme", "dark", "--lecture", "--lang", "ko", "--lock", "T,y", "--hide", "eps", "--calibration",
          "--language-model", "--step", "3", "--function", "nll", "--open", "table,info"]
# The page's own classes: Python builds no model with them.
PAGE_CLASSES = {"dark", "lecture-mode"}
# A look (a colour, a width, a font, a size, a class) or a label (a text, a title, a control's options): what this
# test is about. The lesson's first frame (a range's ends, what is visible, a value) Python may build and the
# page draw again from the same state.
LOOK_OR_LABEL = re.compile(r"_color$|_width$|_font|_size$|^size$|^(text|label|labels|title|options|axis_label|"
                           r"tooltips|css_classes|items)$")


def built(html):
    """Each model of the exported page's document as Python built it: id → (type, {property: value})."""
    docs = json.loads(re.search(r'<script type="application/json" id="[^"]+">\s*(.*?)\s*</script>', html, re.S)[1])
    models = {}

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "object" and "id" in node and "attributes" in node:
                models[node["id"]] = (node["name"], node["attributes"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(next(iter(docs.values()))["roots"])
    return models


def test_no_look_or_label_is_set_both_in_python_and_by_the_page(new_page, tmp_path):
    out = tmp_path / "page.html"
    assert main([str(out), *LESSON]) == 0
    models = built(out.read_text(encoding="utf-8"))
    p = new_page(block_network=True)
    p.pg.add_init_script(RECORD)
    p.pg.goto(out.as_uri())
    lp.wait_ready(p.pg)
    writes = p.pg.evaluate("window.__writes")
    assert len(writes) > 100, "the hook saw the page draw nothing"
    twice = set()
    for model, kind, key, classes in writes:
        attributes = models.get(model, (None, {}))[1]
        if key not in attributes or not LOOK_OR_LABEL.search(key):
            continue
        if key == "css_classes":  # the page adds and removes its own classes, and keeps every one Python gave
            if not set(attributes[key]) <= set(classes):
                twice.add((kind, key, f"drops {sorted(set(attributes[key]) - set(classes))}"))
            continue
        twice.add((kind, key))
    assert twice == set(), f"set by Python and again by the page: {sorted(twice)}"
    given = {c for _, attributes in models.values() for c in attributes.get("css_classes", [])}
    assert given & PAGE_CLASSES == set()
    assert p.errors == [] and p.blocked == []
