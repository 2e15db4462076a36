// Medians, ranges and ratios: every figure of the benchmark is a ratio of medians, with the
// range of each side, so one slow run on a shared machine cannot decide it.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summary(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

/**
 * One figure: `subject` against `baseline`. `lowerIsBetter` for times and memory; throughput is
 * higher-is-better. The target is compared by the report, never by a test.
 */
export function figure(name, subject, baseline, { unit, target, lowerIsBetter = true, note } = {}) {
  const s = summary(subject);
  const b = summary(baseline);
  const ratio = s.median / b.median;
  const met = target === undefined ? undefined : lowerIsBetter ? ratio <= target : ratio >= target;
  return { name, unit, ratio, subject: s, baseline: b, target, lowerIsBetter, met, note };
}

/** Peak memory of one command (bytes), beside its baseline's when it has one. */
export function memoryRow(name, values, baseline) {
  const row = { name, subject: summary(values) };
  if (baseline) {
    row.baseline = { label: baseline.label, ...summary(baseline.values) };
    row.ratio = row.subject.median / row.baseline.median;
  }
  return row;
}

/**
 * A figure from interleaved pairs (subject[i] run beside baseline[i]): the ratio is the median of
 * the pairs' ratios, so a slow stretch of a shared machine weighs on both sides of a pair alike.
 */
export function pairedFigure(name, subject, baseline, opts = {}) {
  const f = figure(name, subject, baseline, opts);
  const ratio = median(subject.map((s, i) => s / baseline[i]));
  const met = f.target === undefined ? undefined : f.lowerIsBetter ? ratio <= f.target : ratio >= f.target;
  return { ...f, ratio, met, note: 'median of interleaved pairs' };
}

/** A count against its budget (one measurement, no spread): the ratio is count / budget. */
export function budgetFigure(name, count, budget, unit) {
  const one = (n) => ({ median: n, min: n, max: n, n: 1 });
  return { name, unit, ratio: count / budget, subject: one(count), baseline: one(budget), target: 1, lowerIsBetter: true, met: count <= budget };
}
