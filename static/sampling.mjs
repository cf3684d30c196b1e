// Drawing classes by the Gumbel-max trick: the JavaScript twin of core/sampling.py, draw for draw. The generator
// is xoshiro128** seeded by SplitMix32, in 32-bit integer arithmetic that JavaScript does exactly (Math.imul,
// >>> 0): the same seed gives the same words here and in Python.

const GOLDEN = 0x9e3779b9;

function rotl(x, k) {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** n outputs of xoshiro128** seeded by SplitMix32 from `seed` (core/sampling.py uniform_words). */
export function uniform_words(n, seed) {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`seed must be 0 … 2^32 − 1: ${seed}`);
  let state = seed;
  const s = [];
  for (let i = 0; i < 4; i++) {
    state = (state + GOLDEN) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    s.push((z ^ (z >>> 16)) >>> 0);
  }
  let [s0, s1, s2, s3] = s;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 = (s2 ^ s0) >>> 0;
    s3 = (s3 ^ s1) >>> 0;
    s1 = (s1 ^ s2) >>> 0;
    s0 = (s0 ^ s3) >>> 0;
    s2 = (s2 ^ t) >>> 0;
    s3 = rotl(s3, 11);
  }
  return out;
}

/** n×K standard Gumbel noise, row-major: g = −ln(−ln u), u = (w + ½)/2³² (core/sampling.py gumbel_noise). */
export function gumbel_noise(n, K, seed) {
  const words = uniform_words(n * K, seed);
  const g = new Float64Array(n * K);
  for (let i = 0; i < g.length; i++) g[i] = -Math.log(-Math.log((words[i] + 0.5) / 4294967296));
  return g;
}

/** How often each class wins argmax_k(z_k/T + g_k) over the n rows of `noise`; a tie goes to the lower index. */
export function gumbel_max_counts(z, noise, T = 1.0) {
  const K = z.length;
  const counts = new Array(K).fill(0);
  const u = z.map((v) => v / T);
  for (let row = 0; row < noise.length; row += K) {
    let best = 0;
    for (let k = 1; k < K; k++) if (u[k] + noise[row + k] > u[best] + noise[row + best]) best = k;
    counts[best] += 1;
  }
  return counts;
}
