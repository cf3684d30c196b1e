// A fixture Python writes for the node tests: each holds Python's answers on shared cases. They are made, not
// kept: tests/test_js_tier.py writes them afresh into $FIXTURES for each run, and `python tests/js/fixtures.py`
// writes them into tests/js/fixtures/ for `node --test tests/js/` on its own.
import { existsSync, readFileSync } from "node:fs";

export function fixture(name) {
  const folder = process.env.FIXTURES ?? new URL("./fixtures", import.meta.url).pathname;
  const path = `${folder}/${name}`;
  if (!existsSync(path)) throw new Error(`no fixture ${name}: run \`python tests/js/fixtures.py\` first`);
  return JSON.parse(readFileSync(path, "utf-8"));
}
