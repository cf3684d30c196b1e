// The instructor's section: a link builder. From the lesson as it is now, an instructor chooses what a learner
// may not change (lock) or see (hide), the step of the guided path, the language and the look; the section
// writes the link that opens that lesson, the export command that writes it as a file, and an iframe for a course
// page, and says in words what the link will do. Its choices are the page's, not the lesson's: building a link
// changes nothing a learner sees.

import { markup_of, shadow_of } from "./bokeh_adapter.mjs";
import { set_lang } from "./actions.mjs";
import { link_address, set_if_changed } from "./draw.mjs";
import { link_default, link_of } from "./link.mjs";
import { escape_html, fill, plain_text } from "./readouts.mjs";

/** The link keys a link may lock or hide, in the table's order (app/fields.py CONTROLLED). */
export function controlled(rules) {
  return rules.lesson_fields.find((f) => f.key === "lock").choices;
}

// The colours a link may ask for: the theme field's choices.
function theme_choices(rules) {
  return rules.lesson_fields.find((f) => f.key === "theme").choices;
}

/** The builder's first choices: what lesson s already locks, hides and shows. */
export function first_choice(s) {
  return { lock: [...s.lock], hide: [...s.hide], step: s.step, lang: s.lang, theme: s.theme, lecture: s.lecture };
}

/** The lesson a link built from lesson s opens: s where it is now (its logits where it starts), with the
 * choice's locks, hidden controls, step, language and look, on the guided path, the builder closed. Names that are
 * the language's own become the chosen language's own. */
export function built_lesson(s, choice, rules, strings) {
  const keys = controlled(rules);
  return {
    ...set_lang(s, choice.lang, strings), initial: [...s.z], theme: choice.theme, lecture: choice.lecture,
    step: choice.step, tour: true, teach: false, notice: "",
    lock: keys.filter((key) => choice.lock.includes(key)), hide: keys.filter((key) => choice.hide.includes(key)),
  };
}

/** A word of a shell command as POSIX shells read it: plain where it is, else in single quotes. */
export function shell_word(text) {
  return /^[A-Za-z0-9_.,=:/+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** The `softmax-explainer export` command that writes lesson s as a file: an option for each field the export
 * command has (app/fields.py `cli`) where s differs from the default; the logits always. */
export function export_command(s, rules, strings, file = "lesson.html") {
  const words = ["softmax-explainer", "export", file];
  for (const f of rules.lesson_fields) {
    // Where a link leaves a field out, so does the command; the logits (--logits sets where they start, and they
    // start there) always. Every flag with an option is off by default: its option turns it on.
    if (!f.cli || (f.kind !== "logits" && link_default(f, s, strings))) continue;
    words.push(f.cli.name);
    const value = f.kind === "logits" ? s.z : s[f.key];
    if (f.kind !== "flag") words.push(Array.isArray(value) ? value.join(",") : String(value));
  }
  return words.map(shell_word).join(" ");
}

/** An iframe for a course page: the exported file by its name beside the page, or the served app. */
function iframe(page, link, t) {
  const src = page.a.mode === "served" ? link_address(page, link)
    : `${decodeURIComponent(location.pathname.split("/").pop() || "explainer.html")}#${link}`;
  return `<iframe src="${escape_html(src)}" title="${escape_html(t.teach_frame_title)}" ` +
    'style="width: 100%; height: 1458px; border: 0;"></iframe>';
}

/** What the link will do, in words: where it opens, in which language and look, what is fixed and hidden. */
export function preview(built, steps, t) {
  const names = (keys) => keys.map((key) => t.lock_names[key]).join(", ");
  const title = plain_text(t.tour_steps[steps[built.step - 1].id].title);
  const look = `${t.teach_themes[built.theme]}${built.lecture ? `, ${t.teach_lecture_on}` : ""}`;
  const only_locked = built.lock.filter((key) => !built.hide.includes(key));
  const fixed = [
    only_locked.length ? fill(t.teach_says_locked, { keys: names(only_locked) }) : "",
    built.hide.length ? fill(t.teach_says_hidden, { keys: names(built.hide) }) : "",
  ].filter(Boolean);
  return [fill(t.teach_says, { k: built.step, n: steps.length, title, lang: t.lang_options[built.lang], look }),
    ...(fixed.length ? fixed : [t.teach_says_free])].join(" ");
}

// The section's form, in the page's language: the choices, then the three texts to copy. Drawn once per
// language; a change of a choice rewrites only the texts and the preview (a checkbox keeps its focus).
function form_html(page, choice, t) {
  const { a } = page;
  const options = (values, label, chosen) => values.map((v) =>
    `<option value="${escape_html(String(v))}"${v === chosen ? " selected" : ""}>${escape_html(label(v))}</option>`)
    .join("");
  const steps = options(a.steps.map((_, k) => k + 1), (k) =>
    `${k}. ${plain_text(t.tour_steps[a.steps[k - 1].id].title)}`, choice.step);
  const rows = controlled(a.rules).map((key) => `<tr><th scope="row">${escape_html(t.lock_names[key])} ` +
    `<code>${key}</code></th>` +
    `<td><input type="checkbox" data-lock="${key}"${choice.lock.includes(key) ? " checked" : ""} ` +
    `aria-label="${escape_html(fill(t.teach_lock_one, { key: t.lock_names[key] }))}"></td>` +
    `<td><input type="checkbox" data-hide="${key}"${choice.hide.includes(key) ? " checked" : ""} ` +
    `aria-label="${escape_html(fill(t.teach_hide_one, { key: t.lock_names[key] }))}"></td></tr>`).join("");
  const out = (key) => `<div class="teach-out"><label for="teach-${key}">${t[`teach_${key}`]}</label>` +
    `<textarea id="teach-${key}" data-out="${key}" readonly rows="${key === "link" ? 2 : 3}" spellcheck="false">` +
    "</textarea>" +
    `<button type="button" data-copy="${key}">${t.teach_copy}</button></div>`;
  return `<div class="teach"><p>${t.teach_intro}</p><div class="teach-choices">` +
    `<label>${t.teach_step} <select data-choice="step">${steps}</select></label>` +
    `<label>${t.teach_lang} <select data-choice="lang">${options(Object.keys(t.lang_options),
      (l) => t.lang_options[l], choice.lang)}</select></label>` +
    `<label>${t.teach_theme} <select data-choice="theme">${options(theme_choices(a.rules), (th) => t.teach_themes[th],
      choice.theme)}</select></label>` +
    `<label><input type="checkbox" data-choice="lecture"${choice.lecture ? " checked" : ""}> ${t.lecture}</label>` +
    `</div><div class="teach-keys"><table><thead><tr><th scope="col">${t.teach_control}</th>` +
    `<th scope="col">${t.teach_lock}</th><th scope="col">${t.teach_hide}</th></tr></thead><tbody>${rows}` +
    `</tbody></table></div><p class="teach-preview" data-out="preview"></p>${out("link")}${out("command")}` +
    `${out("iframe")}</div>`;
}

/** Draw the section for lesson s (draw.mjs draw): shown while s.teach, unless a link hides it from learners
 * (hide=teach); its texts from the lesson as it is now. */
export function draw_teach(page, s, t) {
  const { a } = page;
  const open = s.teach && !s.hide.includes("teach");
  set_if_changed(a.teach, { visible: open });
  if (!open) return;
  page.teach ??= { choice: first_choice(s), lang: null };
  const el = markup_of(page, a.teach);
  if (page.teach.lang !== s.lang || !el?.querySelector("[data-out]")) {
    a.teach.text = form_html(page, page.teach.choice, t);
    page.teach.lang = el ? s.lang : null; // not drawn yet: written again once it is
  }
  listen(page);
  write_texts(page, s, t);
}

function write_texts(page, s, t) {
  const { a } = page;
  const el = markup_of(page, a.teach);
  if (!el) return;
  const built = built_lesson(s, page.teach.choice, a.rules, a.strings);
  const link = link_of(built, a.strings, a.rules);
  const texts = { link: link_address(page, link), command: export_command(built, a.rules, a.strings),
    iframe: iframe(page, link, t), preview: preview(built, a.steps, t) };
  for (const [key, text] of Object.entries(texts)) {
    const out = el.querySelector(`[data-out="${key}"]`);
    if (!out || (out.tagName === "TEXTAREA" ? out.value : out.textContent) === text) continue;
    if (out.tagName === "TEXTAREA") out.value = text;
    else out.textContent = text;
    const copy = el.querySelector(`button[data-copy="${key}"]`);
    if (copy) copy.textContent = t.teach_copy; // "copied" was said of the text before
  }
}

function listen(page) {
  const shadow = shadow_of(page, page.a.teach);
  if (!shadow || page.shadows.has(shadow)) return;
  page.shadows.add(shadow);
  shadow.addEventListener("change", (ev) => on_choice(page, ev));
  shadow.addEventListener("click", (ev) => on_copy(page, ev));
}

function on_choice(page, ev) {
  const input = ev.target;
  const { choice } = page.teach;
  const toggle = (list, key) => (input.checked ? [...new Set([...list, key])] : list.filter((k) => k !== key));
  if (input.dataset.lock) choice.lock = toggle(choice.lock, input.dataset.lock);
  else if (input.dataset.hide) choice.hide = toggle(choice.hide, input.dataset.hide);
  else if (input.dataset.choice === "lecture") choice.lecture = input.checked;
  else if (input.dataset.choice === "step") choice.step = Number(input.value);
  else if (input.dataset.choice) choice[input.dataset.choice] = input.value;
  else return;
  const s = page.record.valid;
  write_texts(page, s, page.a.strings[s.lang]);
}

// Copy: the text is selected in its box (a reader copies it by hand where the clipboard is refused: a file page
// in some browsers) and put on the clipboard; the button says so until the text changes.
function on_copy(page, ev) {
  const button = ev.target.closest?.("button[data-copy]");
  if (!button) return;
  const box = button.parentElement.querySelector("textarea");
  box.select();
  const t = page.a.strings[page.record.valid.lang];
  navigator.clipboard?.writeText(box.value).then(() => { button.textContent = t.teach_copied; }, () => {});
}
