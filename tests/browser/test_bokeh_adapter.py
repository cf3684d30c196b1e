"""Every BokehJS internal the page relies on (static/bokeh_adapter.mjs), one test per assumption, named after
the adapter's function: a Bokeh upgrade that breaks one fails here, by name, before it fails a lesson.

Each test uses the same BokehJS API the adapter uses, on the exported page (no server needed).
"""

import pytest

from tests.browser import lessonpage as lp
from tests.browser.test_tour import handle, handle_centre

FIND = lp.FIND


def count_panel_measures(pg, view_js):
    """Count each side panel's check for a new size (layout.has_size_changed) of the plot view `view_js` finds,
    in window.__asked from 0."""
    pg.evaluate(f"""() => {{ const v = ({view_js}); window.__asked = 0;
        for (const panel of v.model.side_panels) {{
          const layout = v.renderer_views.get(panel)?.layout; if (!layout) continue;
          const asked = layout.has_size_changed;
          layout.has_size_changed = function () {{ window.__asked++; return asked.call(this); }};
        }} }}""")


def count_slider_setups(pg, view_js):
    """Count the set-ups of the slider view `view_js` finds (its noUiSlider's updateOptions), in window.__updates
    from 0."""
    pg.evaluate(f"""() => {{ const v = ({view_js}); window.__updates = 0; const update = v._noUiSlider.updateOptions;
        v._noUiSlider.updateOptions = function (...args) {{ window.__updates++; return update.apply(this, args); }};
        }}""")


def count_layouts(pg):
    """Count the layouts the explainer's root view computes (LayoutDOMView._compute_layout), in window.__layouts
    from 0: the ones `one_layout` notes as due are not counted until done."""
    pg.evaluate(f"""() => {{ const root = Bokeh.index.find_one(({FIND})('explainer')); window.__layouts = 0;
        if (!root._compute_layout.counted) {{
          const compute = root._compute_layout;
          root._compute_layout = function (...args) {{ window.__layouts++; return compute.apply(this, args); }};
          root._compute_layout.counted = true;
        }} }}""")


def slide(pg, x, y, dx, moves):
    """Press at (x, y) and move right by dx at each of `moves` painted frames, then release."""
    pg.mouse.move(x, y)
    pg.mouse.down()
    for i in range(moves):
        pg.mouse.move(x + dx * (i + 1), y)
        lp.painted(pg)
    pg.mouse.up()


@pytest.fixture(scope="module")
def pg(browser, exported):
    context = browser.new_context(viewport={"width": 1280, "height": 960})
    page = context.new_page()
    page.goto(exported.as_uri())
    lp.wait_ready(page)
    yield page
    context.close()


def test_tick_interval_is_the_distance_between_the_ticks_the_axis_draws(pg):
    """A BasicTicker's interval for a range and a count asked (AdaptiveTicker.get_interval, a method of the model)
    is the distance between the ticks its axis draws; from −6 to 6, five asked give 2 and four give 5."""
    got = pg.evaluate(f"""() => {{ const fig = ({FIND})('logit_figure'), axis = fig.left[0], t = axis.ticker;
        const ticks = Bokeh.index.find_one(fig).renderer_views.get(axis).tick_coords.major[1];
        return [t.get_interval(fig.y_range.start, fig.y_range.end, t.desired_num_ticks), ticks[1] - ticks[0],
                t.get_interval(-6, 6, 5), t.get_interval(-6, 6, 4)]; }}""")
    assert got[0] == pytest.approx(got[1]) and got[2:] == [2, 5], got


def test_view_of_finds_the_view_of_a_model(pg):
    assert pg.evaluate(f"() => {{ const m = ({FIND})('logit_figure'); return Bokeh.index.find_one(m).model === m; }}")


def test_markup_of_is_the_element_a_div_draws_into(pg):
    assert pg.evaluate(f"""() => {{ const m = ({FIND})('notice'); const el = Bokeh.index.find_one(m).markup_el;
        return el instanceof HTMLElement && el.isConnected && el.getRootNode() instanceof ShadowRoot; }}""")


def test_shadow_of_receives_events_from_a_divs_html(pg):
    got = pg.evaluate(f"""() => {{ const v = Bokeh.index.find_one(({FIND})('logit_inputs'));
        let seen = null; v.shadow_el.addEventListener('keydown', (ev) => {{ seen = ev.target.className; }});
        v.markup_el.querySelector('.logit-input').dispatchEvent(new KeyboardEvent('keydown', {{bubbles: true,
          composed: true}}));
        return [v.shadow_el instanceof ShadowRoot, seen]; }}""")
    assert got == [True, "logit-input"]


def test_element_of_is_the_views_element_in_the_page(pg):
    assert pg.evaluate(f"() => Bokeh.index.find_one(({FIND})('explainer')).el.isConnected")


def test_set_markup_silent_text_fires_no_change_and_lays_nothing_out(pg):
    """`setv(..., {silent: true})` keeps the model's text without its change signal (which re-lays out the
    page); the element shows what is written into it."""
    got = pg.evaluate(f"""() => {{ const m = ({FIND})('live_region'); const v = Bokeh.index.find_one(m);
        let fired = 0; m.properties.text.change.connect(() => fired++);
        const before = m.text; m.setv({{text: before + ' '}}, {{silent: true}});
        const kept = m.text === before + ' '; m.setv({{text: before}}, {{silent: true}});
        return [kept, fired, v.markup_el.isConnected]; }}""")
    assert got == [True, 0, True]


def test_held_points_are_the_selection_during_a_drag(pg):
    x, y = lp.point_xy(pg, 2)
    pg.mouse.move(x, y)
    pg.mouse.down()
    pg.mouse.move(x, y - 20, steps=4)
    held = pg.evaluate(f"() => Array.from(({FIND})('logits').selected.indices)")
    pg.mouse.up()
    lp.settled(pg)
    assert held == [2]


def test_changed_in_place_redraws_the_points(pg):
    """Columns edited in place and `source.change.emit()`: the glyph takes the new values (the tool's own way)."""
    before = pg.evaluate(f"""() => {{ const src = ({FIND})('logits');
        const view = Bokeh.index.find_one(({FIND})('logit_figure'));
        window.__glyph = [...view.renderer_views.values()].find((r) => r.model.data_source === src).glyph;
        const before = window.__glyph.sy[0]; src.data.z[0] -= 1; src.change.emit(); return before; }}""")
    pg.wait_for_function("(before) => window.__glyph.sy[0] > before", arg=before)
    pg.evaluate(f"() => {{ const src = ({FIND})('logits'); src.data.z[0] += 1; src.change.emit(); }}")


def test_clear_selection_empties_the_selection(pg):
    assert pg.evaluate(f"""() => {{ const src = ({FIND})('logits'); src.selected.indices = [1];
        src.selection_manager.clear(); return src.selected.indices.length; }}""") == 0


def test_figure_canvas_is_the_figures_pixels(pg):
    got = pg.evaluate(f"""() => {{ const v = Bokeh.index.find_one(({FIND})('prob_figure'));
        const c = v.export('png', true).canvas; return [c instanceof HTMLCanvasElement, c.width > 100,
        c.height > 100]; }}""")
    assert got == [True, True, True]


def test_figure_svg_is_the_figure_painted_into_bokehs_svg_context(pg):
    """PlotView.export("svg") paints the figure into an SVGRenderingContext2D whose `get_svg` is its root <svg>,
    sized in CSS pixels, its texts as <text>; the figure's own canvas is left as it was."""
    got = pg.evaluate(f"""() => {{ const v = Bokeh.index.find_one(({FIND})('prob_figure'));
        const before = v.canvas_view.primary.canvas.toDataURL();
        const svg = v.export('svg', false).ctx.get_svg();
        return [svg instanceof SVGSVGElement, Number(svg.getAttribute('width')) === v.bbox.width,
          [...svg.querySelectorAll('text')].some((t) => t.textContent === v.model.title.text),
          v.canvas_view.primary.canvas.toDataURL() === before]; }}""")
    assert got == [True, True, True, True]


def test_untabbable_the_canvas_event_layer_is_what_bokeh_makes_focusable(pg):
    got = pg.evaluate(f"""() => ["logit_figure", "prob_figure"].map((n) => {{
        const el = Bokeh.index.find_one(({FIND})(n)).canvas_view.events_el;
        return [el instanceof HTMLElement && el.isConnected, el.tabIndex]; }})""")
    assert got == [[True, -1], [True, -1]], "the page took both figures out of the Tab order"


def test_event_origin_a_click_names_its_button(pg):
    """A button's click reaches a js_event_callback as an event whose `origin` is the button."""
    pg.evaluate(f"""() => {{ const b = ({FIND})('download_png'); const CustomJS = Bokeh.Models.get('CustomJS');
        const cb = new CustomJS({{code: 'window.__clicked = [cb_obj.event_name, cb_obj.origin.name];'}});
        b.js_event_callbacks = {{...b.js_event_callbacks,
          button_click: [...(b.js_event_callbacks.button_click ?? []), cb]}}; }}""")
    with pg.expect_download():
        lp.click(pg, "download_png")
    pg.wait_for_function("() => window.__clicked !== undefined")
    assert pg.evaluate("() => window.__clicked") == ["button_click", "download_png"]


def test_an_overlay_level_renderer_repaints_without_the_axes(pg):
    """The data renderers sit at level "overlay" (app/document.py): a drag repaints the overlay layer only, not
    the axes, grid and titles of the primary layer."""
    got = pg.evaluate(f"""() => {{
        const view = Bokeh.index.find_one(({FIND})('logit_figure'));
        const counts = {{primary: 0, overlays: 0}};
        const orig = {{primary: view._paint_primary, overlays: view._paint_overlays}};
        view._paint_primary = (...a) => {{ counts.primary++; return orig.primary.apply(view, a); }};
        view._paint_overlays = (...a) => {{ counts.overlays++; return orig.overlays.apply(view, a); }};
        window.__paints = counts; window.__restore = () => Object.assign(view, {{_paint_primary: orig.primary,
          _paint_overlays: orig.overlays}}); }}""")
    assert got is None
    x, y = lp.point_xy(pg, 1)
    pg.mouse.move(x, y)
    pg.mouse.down()
    for i in range(1, 6):
        pg.mouse.move(x, y - 6 * i)
        pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    counts = pg.evaluate("() => window.__paints")
    pg.mouse.up()
    lp.settled(pg)
    pg.evaluate("() => { window.__restore(); }")  # Object.assign returns the view: not to be serialised
    assert counts["overlays"] >= 4 and counts["primary"] == 0, counts


def test_set_draggable_an_inactive_tool_takes_no_drag(pg):
    """Tool.active false: the toolbar routes no pan to the PointDrawTool, so a drag moves no point."""
    before = lp.data(pg, "logits")["z"]
    pg.evaluate(f"() => {{ ({FIND})('logit_figure').toolbar.tools[0].active = false; }}")
    lp.drag(pg, 0, -60)
    assert lp.data(pg, "logits")["z"] == before
    pg.evaluate(f"() => {{ ({FIND})('logit_figure').toolbar.tools[0].active = true; }}")
    lp.drag(pg, 0, -60)
    assert lp.data(pg, "logits")["z"][0] > before[0]
    lp.click(pg, "reset")
    lp.settled(pg)


def test_repaint_clean_a_cleared_canvas_is_painted_again(pg):
    """CanvasView.primary/.overlays hold the layers' canvases; setting a width clears one, request_repaint paints
    it again (the figure's background reaches its corner)."""
    got = pg.evaluate(f"""async () => {{ const v = Bokeh.index.find_one(({FIND})('prob_figure'));
        const layers = [v.canvas_view.primary, v.canvas_view.overlays];
        const c = layers[0].canvas; const at = () => c.getContext('2d').getImageData(c.width / 2, 5, 1, 1).data[3];
        for (const l of layers) l.canvas.width = l.canvas.width;
        const cleared = at(); v.request_repaint();
        // Bokeh paints on a later frame; on a loaded machine (CI) two frames were not always enough.
        for (let i = 0; i < 120 && at() === 0; i++) await new Promise((r) => requestAnimationFrame(r));
        return [layers.every((l) => l.canvas instanceof HTMLCanvasElement), cleared, at()]; }}""")
    assert got == [True, 0, 255]


def test_scalar_a_property_python_set_is_a_value_spec(pg):
    """A LabelSet's text_font reads as a spec {value: …} (Python's, or the page's font stack once drawn: a string set
    on it is kept as such a spec); the page measures text in its font."""
    got = pg.evaluate(f"""() => {{ const labels = ({FIND})('prob_figure').center.find((r) => r.type === 'LabelSet');
        return [labels.text_font, labels.text_baseline]; }}""")
    assert set(got[0]) == {"value"} and got[0]["value"].startswith("helvetica"), got


def test_hold_then_drag_makes_no_press_of_a_pointer_held_still(pg):
    """UIGestures starts a press timer of UIGestures.press_threshold (one for every plot) when a pointer goes down
    (_start_timeout); the logit figure's own gestures start none, and the threshold stays Bokeh's."""
    got = pg.evaluate(f"""() => {{ const g = Bokeh.index.find_one(({FIND})('logit_figure')).canvas_view
        .ui_event_bus.ui_gestures; return [Object.hasOwn(g, '_start_timeout'), g.press_timer ?? null,
        g.constructor.press_threshold, typeof Object.getPrototypeOf(g)._start_timeout]; }}""")
    assert got == [True, None, 300, "function"]
    x, y = lp.point_xy(pg, 0)
    start = lp.state(pg)["z"][0]
    pg.mouse.move(x, y)
    pg.mouse.down()
    pg.wait_for_timeout(450)  # held still past Bokeh's 300 ms press threshold
    for i in range(1, 6):
        pg.mouse.move(x, y - 8 * i)
        lp.painted(pg)
    pg.mouse.up()
    lp.wait_state(pg, f"(s) => s.z[0] > {start}")
    pg.evaluate(f"() => {{ const m = ({FIND})('lesson'); m.state = {{...m.state, z: [2, 1, 0.1]}}; }}")
    lp.wait_state(pg, "(s) => s.z[0] === 2")


def test_inner_width_of_a_figure_never_laid_out_is_unset_and_reading_it_throws(pg):
    """The calibration view's figures are out of the layout until it opens: their `inner_width` was never set,
    and reading it throws; `properties.inner_width.is_unset` says so without reading it."""
    got = pg.evaluate(f"""() => {{ const m = ({FIND})('nll_figure'), laid = ({FIND})('logit_figure');
        let threw = false; try {{ m.inner_width; }} catch (e) {{ threw = true; }}
        return [m.properties.inner_width.is_unset, threw, laid.properties.inner_width.is_unset,
                laid.inner_width > 0]; }}""")
    assert got == [True, True, False, True]


def test_quiet_styles_a_renderers_sheet_is_written_at_every_paint_and_kept_when_unchanged(pg):
    """Bokeh writes each renderer's sheet of CSS variables at a paint (reposition → _update_css_variables →
    InlineStyleSheet._update, which sets its `<style>`'s text); the page's renderers skip a write of the text the
    sheet holds (which would replace its text node: a style invalidation), and keep every other."""
    got = pg.evaluate(f"""async () => {{ const v = Bokeh.index.find_one(({FIND})('prob_figure'));
        const r = v.computed_renderer_views.find((r) => r._css_vars && [...(r.visuals ?? [])][0]);
        const el = r._css_vars.el, vars = r._update_css_variables; let asked = 0;
        r._update_css_variables = function () {{ asked++; return vars.call(this); }};
        let writes = 0; const tick = () => new Promise((done) => setTimeout(done, 0));
        const watch = new MutationObserver((records) => {{ writes += records.length; }});
        watch.observe(el, {{childList: true, characterData: true, subtree: true}});
        r.reposition(true); await tick(); const repositioned = [asked, writes, el.textContent];
        const css = ':host {{ --sx-probe: 1; }}';
        r._css_vars.replace(css); await tick(); const first = writes;
        r._css_vars.replace(css); await tick(); const again = writes;
        const text = el.textContent; r._css_vars.clear(); await tick(); const cleared = [writes, el.textContent];
        delete r._update_css_variables; watch.disconnect();
        return [repositioned, first, again, text, cleared, Object.hasOwn(r._css_vars, '_update'),
                r._css_vars._update.quiet === true]; }}""")
    assert got == [[1, 0, ""], 1, 1, ":host { --sx-probe: 1; }", [2, ""], True, True]


def test_quiet_styles_the_explainers_visuals_read_no_css_variable(pg):
    """VisualProperties._get_css_value reads `--bk-<visual>-<attr>` from the renderer's element by getComputedStyle,
    and a value there overrides the model's. The explainer's looks are its themes': a variable set on its renderer's
    element, or on the host page's body, is not asked for and changes nothing drawn (the probability figure's
    pixels, compared before and after a repaint)."""
    fig = pg.evaluate_handle(f"() => Bokeh.index.find_one(({FIND})('prob_figure')).el").as_element()
    shown = fig.screenshot()
    got = pg.evaluate(f"""async () => {{ const v = Bokeh.index.find_one(({FIND})('prob_figure'));
        const r = v.computed_renderer_views.find((r) => r._css_vars && [...(r.visuals ?? [])][0]);
        const visual = [...r.visuals][0], name = visual.css_prefix + 'color';
        r.el.style.setProperty(name, 'red');
        for (const attr of ['line-color', 'fill-color', 'text-color']) {{
          document.body.style.setProperty(`--bk-${{attr}}`, 'red'); }}
        const own = getComputedStyle(r.el).getPropertyValue(name);
        const asked = [], get = CSSStyleDeclaration.prototype.getPropertyValue;
        CSSStyleDeclaration.prototype.getPropertyValue = function (p) {{
          if (p.startsWith('--bk-')) asked.push(p);
          return get.call(this, p); }};
        const read = [visual._get_css_value('color'), own];
        v.request_repaint(); await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
        CSSStyleDeclaration.prototype.getPropertyValue = get; r.el.style.removeProperty(name);
        return [read, asked, visual._get_css_value.quiet === true]; }}""")
    assert got == [["", "red"], [], True], "[the visual's read and the element's style, --bk-* asked, patched]"
    assert fig.screenshot() == shown, "a --bk-* variable changed what the explainer draws"
    pg.evaluate("""() => { for (const attr of ['line-color', 'fill-color', 'text-color'])
        document.body.style.removeProperty(`--bk-${attr}`); }""")


def test_quiet_styles_a_plots_base_font_size_is_read_once_a_task_and_afresh_in_the_next(pg):
    """PlotView.base_font_size asks getComputedStyle for the plot element's font size, for each axis and title at
    every paint; the page reads it once a task, and a change shows in the next task."""
    got = pg.evaluate(f"""async () => {{ const v = Bokeh.index.find_one(({FIND})('prob_figure'));
        let asked = 0; const gcs = window.getComputedStyle;
        window.getComputedStyle = (...a) => {{ asked++; return gcs(...a); }};
        await new Promise((done) => setTimeout(done, 0));
        const was = v.el.style.fontSize; v.el.style.fontSize = '17px';
        const first = [v.base_font_size, v.base_font_size, asked];
        v.el.style.fontSize = '19px';
        const stale = v.base_font_size;
        await new Promise((done) => setTimeout(done, 0));
        const next = [v.base_font_size, asked];
        window.getComputedStyle = gcs; v.el.style.fontSize = was;
        return [first, stale, next]; }}""")
    assert got == [[17, 17, 1], 17, [19, 2]]


def test_quiet_styles_a_glyph_renderers_empty_element_stays_where_it_was_put(pg):
    """A glyph renderer's element holds nothing (RendererView.el: its glyph is drawn on the canvas), and Bokeh
    moves it to the glyph's box at every paint (RendererView.update_position writes its `position` sheet); the
    page's glyph renderers no longer move it: a paint after their data changed leaves the sheet as it was, where
    Bokeh's own would have moved it."""
    got = pg.evaluate(f"""async () => {{ const v = Bokeh.index.find_one(({FIND})('prob_figure'));
        const r = v.computed_renderer_views.find((r) => r.model.type === 'GlyphRenderer');
        const before = r.position.css, source = r.model.data_source, data = source.data;
        const empty = r.el.childElementCount === 0 && [...r.shadow_el.children].every((c) => c.tagName === 'STYLE');
        const y = Object.keys(data).find((k) => Array.isArray(data[k]) || ArrayBuffer.isView(data[k]));
        source.data = {{...data, [y]: Array.from(data[y], (x) => x * 0.5)}};
        await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
        const after = r.position.css;
        Object.getPrototypeOf(Object.getPrototypeOf(r)).update_position.call(r);
        const bokehs = r.position.css;
        r.position.replace(before); source.data = data;
        return [empty, after === before, bokehs !== before && bokehs.includes('top:'),
                r.update_position.quiet === true]; }}""")
    assert got == [True, True, True, True], "[empty, unmoved, Bokeh's own would move it, the page's]"


def test_steady_panels_a_gestures_paints_measure_the_axes_once_and_again_after_they_change(pg):
    """Bokeh asks every side panel of a figure whether its size changed before each paint
    (PlotView._invalidate_layout_if_needed → the panel's layout.has_size_changed); in a gesture the page asks
    once, then again only after a panel's model (here its formatter) changed, and at every paint after it."""
    count_panel_measures(pg, f"Bokeh.index.find_one(({FIND})('prob_figure'))")
    asked = lambda: pg.evaluate("() => window.__asked")  # noqa: E731
    x, y = handle_centre(pg, "temperature")
    pg.mouse.move(x, y)
    pg.mouse.down()
    counts = []
    for i in range(6):
        if i in (0, 3):  # a panel's model changed (before the gesture, in it): the next paint measures again
            pg.evaluate(f"() => Bokeh.index.find_one(({FIND})('prob_figure')).model.side_panels"
                        ".find((panel) => panel.formatter).formatter.change.emit()")
        pg.mouse.move(x + 4 * (i + 1), y)
        lp.painted(pg)
        counts.append(asked())
    pg.mouse.up()
    lp.painted(pg)
    pg.evaluate(f"() => Bokeh.index.find_one(({FIND})('prob_figure')).request_repaint()")
    lp.painted(pg)
    after = asked()
    steps = [b - a for a, b in zip([0, *counts[:-1]], counts, strict=True)]
    assert steps[0] > 0 and steps[1:3] == [0, 0] and steps[3] > 0 and steps[4:] == [0, 0], steps
    assert after > counts[-1], "the paint after the gesture measures, as Bokeh's every paint does"


def test_quiet_slides_a_slide_leaves_the_track_and_any_other_value_moves_the_handle(pg):
    """Bokeh answers each new value of a slider by setting its noUiSlider up again (AbstractSliderView
    ._update_slider → updateOptions); the value a slide of the mouse produced is left where the pointer put the
    handle, and a value set otherwise moves the handle as Bokeh's does."""
    count_slider_setups(pg, f"Bokeh.index.find_one(({FIND})('temperature'))")
    start = pg.evaluate(f"() => ({FIND})('temperature').value")
    slide(pg, *handle_centre(pg, "temperature"), 6, 5)
    slid = pg.evaluate(f"""() => {{ const m = ({FIND})('temperature'), v = Bokeh.index.find_one(m);
        return [m.value, Number(v._noUiSlider.get()), window.__updates]; }}""")
    assert slid[0] > start and slid[1] == pytest.approx(slid[0], abs=1e-9) and slid[2] == 0, slid
    moved = pg.evaluate(f"""() => {{ const m = ({FIND})('temperature'), v = Bokeh.index.find_one(m);
        m.value = {start}; return [Number(v._noUiSlider.get()), window.__updates]; }}""")
    assert moved[0] == pytest.approx(start, abs=1e-9) and moved[1] >= 1, moved


def test_painted_titles_a_titles_new_text_is_painted_once_bokeh_has_built_it(new_page, exported):
    """Bokeh asks for a title's paint when its text changes, then builds the new text (TitleView._init_text,
    awaited) and asks for none after. A figure whose glyphs repaint on the overlay level alone, the next word's
    plot, then kept its old key on screen after the learner chose the other vocabulary; the page asks for one
    more paint once the text is built, and what is on screen is what a fresh paint of the figure shows."""
    p = new_page(block_network=True, viewport=(1280, 960))
    p.pg.goto(f"{exported.as_uri()}#lm=1&tour=0")
    lp.wait_ready(p.pg)
    pg = p.pg
    key = f"() => ({FIND})('vocab_figure').above.map((m) => m.text).join(' ')"
    lp.wait_until(lambda: "50,000" in pg.evaluate(key) and lp.data(pg, "decoding")["kept"] != [], timeout=15)
    handle(pg, "vocab_lang", "select").select_option(index=1)
    lp.wait_until(lambda: "29,988" in pg.evaluate(key), timeout=15)
    el = pg.evaluate_handle(f"() => Bokeh.index.find_one(({FIND})('vocab_figure')).el").as_element()
    el.scroll_into_view_if_needed()
    lp.painted(pg)
    shown = el.screenshot()
    pg.evaluate(f"() => Bokeh.index.find_one(({FIND})('vocab_figure')).request_repaint()")
    lp.painted(pg)
    assert el.screenshot() == shown, "the figure on screen kept its old key"
    assert p.errors == []


def foreign_item():
    """Another Bokeh document for the same page, as a course page or a notebook's other cell holds one: a titled
    figure with a line and its axes, and a slider."""
    from bokeh.document import Document
    from bokeh.embed import json_item
    from bokeh.layouts import column
    from bokeh.models import Slider
    from bokeh.plotting import figure

    fig = figure(width=300, height=200, title="another plot", name="foreign_figure")
    fig.line([0, 1, 2], [0, 1, 4], name="foreign_line")
    root = column(fig, Slider(start=0, end=10, value=5, step=0.1, width=260, name="foreign_slider"))
    # In a document of its own: json_item would otherwise copy the callbacks of `curdoc()`, which Panel's
    # sessions in this worker leave without them.
    Document().add_root(root)
    return json_item(root)


def test_the_adapter_leaves_another_bokeh_documents_views_to_bokeh(new_page, exported):
    """Every change the adapter makes to Bokeh's methods applies under the explainer's root alone: another
    document embedded in the same page moves its glyph renderer's element, writes its sheets and reads its CSS
    variables and its font size afresh, keeps Bokeh's press timer, measures its axes at every paint while the
    explainer is in a gesture, has its slider set up again by its own slide, and paints its title as Bokeh does."""
    p = new_page(block_network=True, viewport=(1280, 960))
    p.pg.goto(exported.as_uri())
    lp.wait_ready(p.pg)
    pg = p.pg
    pg.evaluate("""async (item) => { const div = document.createElement('div'); div.id = 'foreign';
        div.style.cssText = 'position: fixed; right: 0; top: 0; z-index: 10; background: white';
        document.body.append(div); await Bokeh.embed.embed_item(item, 'foreign'); }""", foreign_item())
    foreign = """(name) => { const doc = Bokeh.documents.find((d) => d.get_model_by_name(name));
        return Bokeh.index.find_one(doc.get_model_by_name(name)); }"""
    pg.wait_for_function(f"() => ({foreign})('foreign_figure')?.computed_renderer_views.length > 0")
    got = pg.evaluate(f"""async () => {{ const v = ({foreign})('foreign_figure');
        const tick = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
        const r = v.computed_renderer_views.find((r) => r.model.type === 'GlyphRenderer');
        const before = r.position.css, source = r.model.data_source, data = source.data;
        source.data = {{...data, y: data.y.map((y) => y * 0.25)}}; await tick();
        const moved = r.position.css !== before;
        const drawn = v.computed_renderer_views.find((r) => r._css_vars && [...(r.visuals ?? [])][0]);
        const visual = [...drawn.visuals][0], name = visual.css_prefix + 'probe';
        let asked = 0; const gcs = window.getComputedStyle;
        window.getComputedStyle = (...a) => {{ asked++; return gcs(...a); }};
        drawn.el.style.setProperty(name, 'one'); visual._get_css_value('probe'); visual._get_css_value('probe');
        v.base_font_size; v.base_font_size;
        window.getComputedStyle = gcs; drawn.el.style.removeProperty(name);
        drawn.reposition(true);
        const g = v.canvas_view.ui_event_bus.ui_gestures;
        const title = Bokeh.index.find_one(v.model.title); let paints = 0; const paint = title.request_paint;
        title.request_paint = function () {{ paints++; return paint.call(this); }};
        v.model.title.text = 'another title'; const asked_at_once = paints; await tick(); await tick();
        title.request_paint = paint;
        return [moved, asked, Object.hasOwn(drawn._css_vars, '_update'), Object.hasOwn(g, '_start_timeout'),
                g.constructor.press_threshold, paints - asked_at_once]; }}""")
    assert got == [True, 4, False, False, 300, 0], "[moved, reads, quiet sheet, no press timer, threshold, paints]"
    # The explainer in a gesture (its T slider held and moved): the other figure measures its axes at each paint.
    count_panel_measures(pg, f"({foreign})('foreign_figure')")
    x, y = handle_centre(pg, "temperature")
    pg.mouse.move(x, y)
    pg.mouse.down()
    counts = []
    for i in range(4):
        pg.mouse.move(x + 4 * (i + 1), y)
        pg.evaluate(f"() => ({foreign})('foreign_figure').request_repaint()")
        lp.painted(pg)
        counts.append(pg.evaluate("() => window.__asked"))
    pg.mouse.up()
    steps = [b - a for a, b in zip([0, *counts[:-1]], counts, strict=True)]
    assert all(step > 0 for step in steps), steps
    # Its slider slid by the mouse: Bokeh sets the slider up again for each new value.
    count_slider_setups(pg, f"({foreign})('foreign_slider')")
    box = pg.evaluate_handle(f"() => ({foreign})('foreign_slider').shadow_el.querySelector('.noUi-handle')") \
        .as_element().bounding_box()
    slide(pg, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 8, 4)
    slid = pg.evaluate(f"() => [({foreign})('foreign_slider').model.value, window.__updates]")
    assert slid[0] > 5 and slid[1] >= 1, slid
    lp.drag(pg, 2, -40)  # and the explainer still takes its own gestures
    assert lp.state(pg)["z"][2] > 0.1
    assert p.errors == [], p.errors


def test_one_layout_a_new_look_lays_the_page_out_a_few_times_not_at_every_property(pg):
    """Bokeh lays the whole page out again, synchronously, when a widget's classes change (the view walks up to its
    layout root: LayoutDOMView.invalidate_layout → compute_layout). Lecture mode sets hundreds of such properties;
    the page sets its look, fonts and controls inside `one_layout`, which lays the page out once after them: the
    toggle computed the root's layout 70 times before it (1.5 s on this machine), a few times after."""
    count_layouts(pg)
    button = f"({FIND})('add_one')"
    pg.evaluate(f"() => {{ const m = {button}; m.css_classes = [...m.css_classes, 'probe']; }}")
    assert pg.evaluate("() => window.__layouts") == 1  # at once, before the script goes on
    pg.evaluate(f"() => {{ const m = {button}; m.css_classes = m.css_classes.filter((c) => c !== 'probe'); }}")
    for lecture in (True, False):
        count_layouts(pg)
        lp.set_value(pg, "lecture", lecture, attr="active")
        lp.wait_state(pg, f"(s) => s.lecture === {str(lecture).lower()}")
        lp.settled(pg)
        assert pg.evaluate(f"() => ({FIND})('temperature').css_classes.includes('lecture-mode')") is lecture
        assert 1 <= pg.evaluate("() => window.__layouts") <= 10


def test_one_layout_a_new_language_lays_the_page_out_a_few_times_not_once_per_widget(pg):
    """A widget Bokeh draws again (LayoutDOMView.rerender: a button's new label, a slider's new title) computes the
    whole layout from its root, and a button does so once its label's view is built, after the page's change has
    returned: a new language computed the root's layout 44 times (47 for Korean), one per widget. Now a few times;
    and a button's label changed by itself is laid out before the next frame is painted."""
    for lang in ("ko", "es", "en"):
        count_layouts(pg)
        lp.set_value(pg, "lang", lang)
        lp.wait_state(pg, f"(s) => s.lang === '{lang}'")
        lp.painted(pg)
        assert pg.evaluate(f"() => ({FIND})('add_one').label") != "", lang
        assert 1 <= pg.evaluate("() => window.__layouts") <= 10, lang
    count_layouts(pg)
    laid_out = pg.evaluate(f"""() => new Promise((done) => {{
        const m = ({FIND})('add_one'), label = m.label;
        m.label = label + ' ' + label;
        const now = window.__layouts;
        requestAnimationFrame(() => {{ done([now, window.__layouts]); m.label = label; }});
      }})""")
    assert laid_out == [0, 1]
