// ADL's search for SCORM 1.2's API (static/scorm.mjs find_api) over made-up windows: up the parents, past a
// window of another origin (reading it throws), at most seven levels, then up the opener's; none is null.
import assert from "node:assert/strict";
import { test } from "node:test";

import { find_api } from "../../static/scorm.mjs";

const API = { LMSInitialize: () => "true" };

// A chain of windows from the top (index 0) down; `foreign` levels throw when their API is read.
function chain(levels, { api_at = null, foreign = [] } = {}) {
  const wins = [];
  for (let k = 0; k < levels; k += 1) {
    const win = {};
    win.parent = k === 0 ? win : wins[k - 1];
    if (foreign.includes(k)) Object.defineProperty(win, "API", { get() { throw new Error("SecurityError"); } });
    else win.API = k === api_at ? API : undefined;
    wins.push(win);
  }
  return wins;
}

test("the API is found on the window itself, a parent, or past a parent of another origin", () => {
  assert.equal(find_api(chain(1, { api_at: 0 })[0]), API);
  assert.equal(find_api(chain(3, { api_at: 0 }).at(-1)), API);
  assert.equal(find_api(chain(4, { api_at: 0, foreign: [1, 2] }).at(-1)), API);
});

test("no API, or one further than seven parents up, is null, and nothing throws", () => {
  assert.equal(find_api(chain(5).at(-1)), null);
  assert.equal(find_api(chain(5, { foreign: [0, 1, 2, 3, 4] }).at(-1)), null);
  assert.equal(find_api(chain(9, { api_at: 0 }).at(-1)), null);
  assert.equal(find_api(chain(8, { api_at: 0 }).at(-1)), API);
  assert.equal(find_api({ get parent() { throw new Error("gone"); } }), null);
});

test("a window opened by the platform finds the API up its opener's parents", () => {
  const [top, player] = chain(2, { api_at: 0 });
  const popup = chain(1)[0];
  popup.opener = player;
  assert.equal(find_api(popup), API);
  assert.equal(top.API, API);
  popup.opener = chain(2, { foreign: [1] })[1];
  assert.equal(find_api(popup), null);
});
