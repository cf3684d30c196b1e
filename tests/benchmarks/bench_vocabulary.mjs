// What one frame of a drag of T costs the coming vocabulary view (issue 19): the decoding twin over wordfreq's
// 50,000 English words, softmax alone and with each stage, beside a 60 Hz frame.
//
//     node tests/benchmarks/bench_vocabulary.mjs
//
// The twin runs joined after softmax.mjs, as in the page's bundle (app/bundle.py).
import { readFileSync } from "node:fs";

const source = ["softmax.mjs", "decoding.mjs"]
  .map((name) => readFileSync(new URL(`../../static/${name}`, import.meta.url), "utf-8")).join("\n");
const twin = await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`);
const data = JSON.parse(readFileSync(new URL("../../app/data/vocabulary.json", import.meta.url), "utf-8"));
const z = data.languages.en.buckets.flatMap(([cB, words]) => words.split(" ").map(() => -cB / 100 * Math.LN10));
const FRAME_MS = 1000 / 60;
const PIPELINES = { "softmax(z/T)": [], "top-k 50": [["top_k", 50]], "top-p 0.9": [["top_p", 0.9]],
  "top-k 1000, top-p 0.9, min-p 0.05": [["top_k", 1000], ["top_p", 0.9], ["min_p", 0.05]] };
const FRAMES = 100;

console.log(`${z.length.toLocaleString("en")} words, ${FRAMES} temperatures from 0.5 to 2.5 each`);
for (const [name, stages] of Object.entries(PIPELINES)) {
  for (let i = 0; i < 200; i++) twin.decode(z, 1 + i / 100, stages); // warmed up as by a drag's first seconds
  const start = performance.now();
  for (let i = 0; i < FRAMES; i++) twin.decode(z, 0.5 + (2 * i) / FRAMES, stages);
  const ms = (performance.now() - start) / FRAMES;
  console.log(`${name.padEnd(36)} ${ms.toFixed(2).padStart(6)} ms  ${(ms / FRAME_MS).toFixed(2)} × a 60 Hz frame`);
}
