// Text fitted to pixels (static/frame.mjs): a class name shortened to its room, the class axes' labels and their
// angle, the PNG caption's lines. `node --test tests/js/`. Widths come from a fixed table here; the browser
// measures the canvas's own (tests/browser/test_long_names.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import { class_labels, prob_end, shortened, wrapped } from "../../static/frame.mjs";

// Hangul twice as wide as Latin, "W" wider still, "…" 9 px, a combining mark nothing.
const width_of = (text) => Array.from(text).reduce((w, c) => w + (/\p{M}/u.test(c) ? 0 : c === "…" ? 9
  : c === "W" ? 15 : /[\uac00-\ud7a3]/.test(c) ? 16 : 8), 0);
const LATIN = "Northern long-eared bat of the Appalachi";
const HANGUL = "고양이과 동물 가운데 가장 큰 고양이와 사자를 모두 이르는 부류 이름";
const graphemes = (text) => Array.from(new Intl.Segmenter().segment(text), (g) => g.segment);

test("a name that fits is kept whole; one that does not is its longest start that fits with '…'", () => {
  assert.equal(shortened("cat", 24, width_of), "cat");
  for (const name of [LATIN, HANGUL, "W".repeat(40)]) {
    for (let room = 9; room < width_of(name); room += 7) {
      const cut = shortened(name, room, width_of);
      assert.ok(cut.endsWith("…") && width_of(cut) <= room, `${name} in ${room}: ${cut}`);
      const kept = cut.slice(0, -1);
      assert.ok(name.startsWith(kept) && kept === kept.trimEnd(), `${name}: ${cut}`);
      // One character more (and the spaces before it) would not fit.
      const parts = graphemes(name);
      const more = parts.findIndex((_, n) => parts.slice(0, n).join("").trimEnd().length > kept.length);
      if (more > 0) assert.ok(width_of(`${parts.slice(0, more).join("").trimEnd()}…`) > room, `${name}: ${cut}`);
    }
  }
  assert.equal(shortened(LATIN, 8, width_of), "", "not even '…' fits");
  assert.equal(shortened(LATIN, 9, width_of), "…");
});

test("a name is cut between whole characters: an emoji sequence, a letter with its mark, never the space", () => {
  const family = "\u{1f469}\u200d\u{1f469}\u200d\u{1f467}";
  for (const name of [`${family}${family}${family} family`, "q\u0303q\u0303q\u0303q\u0303 tilde", "ab    cdefgh"]) {
    for (let room = 9; room < width_of(name); room++) {
      const kept = shortened(name, room, width_of).replace(/…$/, "");
      const parts = graphemes(name);
      let joined = "";
      const starts = [""];
      for (const part of parts) starts.push((joined += part));
      assert.ok(starts.some((s) => s.trimEnd() === kept), `${JSON.stringify(name)} cut inside a character: ${kept}`);
    }
  }
  assert.equal(shortened("ab    cdefgh", 60, width_of), "ab…");
});

// The labels' boxes as an axis below draws them at `angle`: each ends at its tick (k·w px from the first),
// `height` across.
function corners(text, k, axis, angle) {
  const L = width_of(text), h = axis.height;
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  const x = axis.lead + k * axis.per_class;
  // Bokeh turns a label below by −angle around its right end, centred across its line.
  return [[-L, -h / 2], [0, -h / 2], [0, h / 2], [-L, h / 2]].map(([u, v]) => [x + u * c + v * s, -u * s + v * c]);
}

function overlap(a, b) {
  for (const quad of [a, b]) {
    for (let i = 0; i < 4; i++) {
      const [[x0, y0], [x1, y1]] = [quad[i], quad[(i + 1) % 4]];
      const [nx, ny] = [y1 - y0, x0 - x1];
      const pa = a.map(([x, y]) => x * nx + y * ny), pb = b.map(([x, y]) => x * nx + y * ny);
      if (Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb)) <= 1e-9) return false;
    }
  }
  return true;
}

test("class labels never meet, stay inside the canvas and within their depth, at any room", () => {
  const names = [LATIN, HANGUL, "W".repeat(40), "cat", "dog", "bird", "fish", "horse", "frog", "plane"];
  let [side_by_side, slanted] = [0, 0];
  for (const K of [2, 3, 6, 7, 10]) {
    for (const per_class of [18, 22, 25, 27, 40, 60, 120, 200]) {
      for (const height of [15, 18, 24]) {
        for (const many of [false, true]) {
          const axis = { side: "below", per_class, height, lead: 60 + 0.6 * per_class, depth: 100, many };
          const { angle, labels } = class_labels(names.slice(0, K), axis, width_of);
          assert.equal(labels.length, K);
          const where = JSON.stringify({ K, ...axis, angle, labels });
          labels.forEach((l, k) => assert.ok(l === names[k] || (l.endsWith("…") && names[k].startsWith(l.slice(0, -1)))
            || l === "", where));
          if (angle === 0) {
            assert.ok(!many, where);
            for (const l of labels) assert.ok(l !== "" && width_of(l) <= per_class - height / 4, where);
            side_by_side += 1;
            continue;
          }
          slanted += 1;
          assert.ok(angle >= Math.PI / 4 - 1e-12 && angle <= Math.PI / 2 + 1e-12, where);
          const boxes = labels.map((l, k) => (l ? corners(l, k, axis, angle) : null));
          boxes.forEach((box, k) => {
            if (!box) return;
            assert.ok(box.every(([x, y]) => x >= -1e-9 && y <= axis.depth + 1e-9), `${where} ${k}`);
            for (const other of boxes.slice(k + 1)) if (other) assert.ok(!overlap(box, other), `${where} ${k}`);
          });
          // A label is left out only where even upright ones would touch, and then one in two.
          const every = Math.ceil((height + 1) / per_class);
          labels.forEach((l, k) => assert.equal(l === "", k % every !== 0, where));
        }
      }
    }
  }
  assert.ok(side_by_side > 10 && slanted > 100, `${side_by_side} ${slanted}`);
});

test("few classes stand side by side unless slanting shows more of their names", () => {
  const axis = (per_class) => ({ side: "below", per_class, height: 18, lead: 60, depth: 62, many: false });
  const few = ["cat", "dog", "bird", "fish", "horse", "frog"];
  assert.deepEqual(class_labels(few, axis(60), width_of), { angle: 0, labels: few });
  // Six classes on a phone: "horse" whole on a slant, where side by side it lost its last letters.
  const phone = class_labels(few, axis(42), width_of);
  assert.ok(phone.angle > 0 && phone.labels.every((l, k) => l === few[k]), JSON.stringify(phone));
  // Three long names on a wide screen: side by side shows more of them than a slant within its depth.
  const wide = class_labels([LATIN, HANGUL, LATIN], axis(165), width_of);
  assert.equal(wide.angle, 0);
  assert.ok(wide.labels.every((l) => l.endsWith("…") && width_of(l) > 120), JSON.stringify(wide));
  assert.equal(class_labels(few, { ...axis(60), many: true }, width_of).angle, Math.PI / 4);
});

test("labels on a left axis are shortened to its depth; every name is whole or its start with '…'", () => {
  const names = [LATIN, HANGUL, "cat"];
  const { angle, labels } = class_labels(names, { side: "left", per_class: 40, height: 18, lead: 0, depth: 90 },
    width_of);
  assert.equal(angle, 0);
  assert.deepEqual(labels.map((l) => width_of(l) <= 90), [true, true, true]);
  assert.equal(labels[2], "cat");
  assert.ok(labels.slice(0, 2).every((l, k) => l.endsWith("…") && names[k].startsWith(l.slice(0, -1))), labels);
});

test("a caption is broken into lines only between its parts, each as long as the room allows", () => {
  const caption = `T = 1 · ε = 0 · K = 3 · true class ${LATIN}: p = 0.659 · loss L = 0.417 nats`;
  assert.deepEqual(wrapped(caption, 10_000, width_of), [caption]);
  for (const room of [80, 200, 400, 600]) {
    const lines = wrapped(caption, room, width_of);
    assert.equal(lines.join(" · "), caption);
    for (let i = 0; i + 1 < lines.length; i++) {
      assert.ok(width_of(`${lines[i]} · ${lines[i + 1].split(" · ")[0]}`) > room, `${room}: ${lines}`);
    }
    assert.ok(lines.every((l) => width_of(l) <= room || !l.includes(" · ")), `${room}: ${lines}`);
  }
});

test("the probability axis ends where a bar's value above 1 has its whole height inside the frame", () => {
  const view = { bar_label_offset: 6, clearance: 3, prob_end: 1.12 };
  for (const room of [{ label_height: 13, target_half: 1.5 }, { label_height: 20, target_half: 2.5 }]) {
    const lift = Math.max(view.bar_label_offset, room.target_half + 1);
    for (let H = 40; H <= 800; H += 7) {
      const end = prob_end(H, room, view);
      assert.ok(end >= view.prob_end && end <= 2, `${H}: ${end}`);
      const top = 1 + (lift + room.label_height + view.clearance) * end / H; // the highest value's top, in p
      if (end < 2) assert.ok(top <= end + 1e-12, `${H}: ${top} past ${end}`);
      if (end > view.prob_end && end < 2) assert.ok(Math.abs(top - end) < 1e-12, `${H}: no higher than it needs`);
    }
  }
  // Lecture mode's 20 px values on a 150 px frame need 1.24 of the axis; a 400 px frame keeps the built 1.12.
  assert.ok(Math.abs(prob_end(150, { label_height: 20, target_half: 2.5 }, view) - 150 / 121) < 1e-12);
  assert.equal(prob_end(400, { label_height: 13, target_half: 1.5 }, view), 1.12);
});
