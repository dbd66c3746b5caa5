export type DiffRow =
  | { op: 'same'; left: string; right: string; leftNo: number; rightNo: number }
  | { op: 'changed'; left: string; right: string; leftNo: number; rightNo: number }
  | { op: 'removed'; left: string; leftNo: number }
  | { op: 'added'; right: string; rightNo: number };

// Beyond this many edits the diff falls back to pairing lines by position (keeps huge, unrelated logs cheap).
const MAX_EDITS = 1_000;

// Side-by-side line diff (Myers on the middle after trimming the common prefix and suffix).
export function diffLines(left: readonly string[], right: readonly string[]): DiffRow[] {
  let prefix = 0;
  while (prefix < left.length && prefix < right.length && left[prefix] === right[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < left.length - prefix &&
    suffix < right.length - prefix &&
    left[left.length - 1 - suffix] === right[right.length - 1 - suffix]
  )
    suffix += 1;
  const rows: DiffRow[] = [];
  for (let i = 0; i < prefix; i += 1) rows.push(same(left, right, i, i));
  const a = left.slice(prefix, left.length - suffix);
  const b = right.slice(prefix, right.length - suffix);
  const ops = myers(a, b) ?? positional(a.length, b.length);
  rows.push(...pairChanges(ops, a, b, prefix));
  for (let k = suffix; k > 0; k -= 1) rows.push(same(left, right, left.length - k, right.length - k));
  return rows;
}

// The index of the first row that is not `same`, or -1.
export function firstDifference(rows: readonly DiffRow[]): number {
  return rows.findIndex((r) => r.op !== 'same');
}

type Op = 'same' | 'del' | 'ins';

function same(left: readonly string[], right: readonly string[], i: number, j: number): DiffRow {
  return { op: 'same', left: left[i] ?? '', right: right[j] ?? '', leftNo: i + 1, rightNo: j + 1 };
}

function positional(n: number, m: number): Op[] {
  const ops: Op[] = [];
  for (let i = 0; i < Math.max(n, m); i += 1) {
    if (i < n) ops.push('del');
    if (i < m) ops.push('ins');
  }
  return ops;
}

// Deletions immediately followed by insertions become side-by-side `changed` rows.
function pairChanges(ops: Op[], a: readonly string[], b: readonly string[], offset: number): DiffRow[] {
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  let k = 0;
  while (k < ops.length) {
    if (ops[k] === 'same') {
      rows.push({ op: 'same', left: a[i] ?? '', right: b[j] ?? '', leftNo: offset + i + 1, rightNo: offset + j + 1 });
      i += 1;
      j += 1;
      k += 1;
      continue;
    }
    const dels: number[] = [];
    const inss: number[] = [];
    while (k < ops.length && ops[k] !== 'same') {
      if (ops[k] === 'del') dels.push(i++);
      else inss.push(j++);
      k += 1;
    }
    for (let p = 0; p < Math.max(dels.length, inss.length); p += 1) {
      const d = dels[p];
      const s = inss[p];
      if (d !== undefined && s !== undefined) {
        rows.push({
          op: 'changed',
          left: a[d] ?? '',
          right: b[s] ?? '',
          leftNo: offset + d + 1,
          rightNo: offset + s + 1,
        });
      } else if (d !== undefined) rows.push({ op: 'removed', left: a[d] ?? '', leftNo: offset + d + 1 });
      else if (s !== undefined) rows.push({ op: 'added', right: b[s] ?? '', rightNo: offset + s + 1 });
    }
  }
  return rows;
}

// Myers' O(ND) shortest edit script; undefined when it needs more than MAX_EDITS edits.
function myers(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d += 1) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a.length, b.length, offset, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number, offset: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d -= 1) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push('same');
      x -= 1;
      y -= 1;
    }
    ops.push(down ? 'ins' : 'del');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push('same');
    x -= 1;
    y -= 1;
  }
  return ops.reverse();
}
