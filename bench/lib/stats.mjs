// Order statistics and small helpers shared by the bench.

// Linear-interpolated quantile of a sample (q in 0..1); NaN for an empty sample.
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function summarize(values) {
  return {
    n: values.length,
    p50: quantile(values, 0.5),
    p95: quantile(values, 0.95),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

export function round(value, digits = 2) {
  if (!Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
