// A learner's own row of logits made into a lesson's classes: the JavaScript twin of app/fold.py `fold`, step
// for step (tests/js/fold.test.mjs reads Python's answers on shared cases).
//
// A row of more than ten values keeps its nine largest (and the true class) and folds the others into "the
// rest", whose logit is their log-sum-exp, so at T = 1 every p is the row's:
//   e^(z_rest) = Σ_{j folded} e^(z_j),  so softmax's denominator is unchanged.
// A row past ±rules.logit is shifted whole, its largest to 0 (softmax is shift-invariant); what stays below
// −rules.logit is raised to it and counted. Classes are named "class i" (i the index in the row), the rest
// "rest (n)", from the string table in the lesson's language.
import { logsumexp, softmax } from "./softmax.mjs";
import { Refusal, clean_names } from "./rules.mjs";

/** Row `z` (finite numbers, at least rules.K[0] of them: static/pasted.mjs parse_logits reads them) as a
 * lesson's classes: { size, kept, folded, rest_p, shift, clamped, logits, names, y }, as app/fold.py's Fold.
 * `y`: the true class, an index in the row (default the largest logit's, the first of equals). */
export function fold(z, rules, t, y = null) {
  const n = z.length;
  if (n < rules.K[0]) throw new Refusal("paste_count", `a row of logits has at least ${rules.K[0]} values`);
  if (y === null) y = z.indexOf(row_max(z));
  const folding = n > rules.K[1];
  let kept;
  let values;
  let rest_p = 0.0;
  if (!folding) {
    kept = Array.from(z, (_, k) => k);
    values = Array.from(z);
  } else {
    // The largest first, equals in the row's order (Array.prototype.sort is stable, as NumPy's "stable" sort).
    const order = Array.from(z, (_, k) => k).sort((i, j) => z[j] - z[i]);
    kept = order.slice(0, rules.K[1] - 1);
    if (!kept.includes(y)) kept[kept.length - 1] = y;
    const mine = new Set(kept);
    const rest = [];
    for (let k = 0; k < n; k++) if (!mine.has(k)) rest.push(z[k]);
    values = [...kept.map((k) => z[k]), logsumexp(rest)];
    rest_p = softmax(values)[values.length - 1];
  }
  const top = row_max(values);
  const widest = values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const shift = widest <= rules.logit ? 0.0 : -top;
  values = values.map((v) => v + shift);
  const clamped = values.filter((v) => v < -rules.logit).length;
  values = values.map((v) => Math.max(v, -rules.logit));
  const names = kept.map((i) => t.row_class.replace("{i}", String(i)));
  if (folding) names.push(t.row_rest.replace("{n}", String(n - kept.length)));
  return { size: n, kept, folded: n - kept.length, rest_p, shift, clamped, logits: values,
    names: clean_names(names, rules), y: kept.indexOf(y) };
}

// The largest value of a row, without spreading it into arguments (a 50,257-value row would be as many).
function row_max(z) {
  let m = -Infinity;
  for (const v of z) if (v > m) m = v;
  return m;
}
