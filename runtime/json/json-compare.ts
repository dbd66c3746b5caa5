import { createHash } from 'node:crypto';
import { writeJsonText } from './json-text.js';
import type { JsonValue } from '../protocol/json-value.js';
import { formatPath, masks, type MaskSegment } from './mask-path.js';
import {
  childPath as child,
  pathSegments as segmentsOf,
  ROOT_PATH as ROOT,
  traverseJson,
  type PathNode,
} from './traverse.js';

// First-difference comparison of two JSON values, exactly or by shape, without recursion (a value may be as deep as
// the runtime accepts). `undefined` stands for "absent" (no value returned, a missing key).

export interface Difference {
  path: string;
  reason: string;
  expected: string;
  actual: string;
}

function pathText(node: PathNode): string {
  const text = formatPath(segmentsOf(node));
  return text.length > 300 ? `…${text.slice(-299)}` : text;
}

class Masks {
  readonly #list: readonly MaskSegment[][];
  readonly #longest: number;
  constructor(list: readonly MaskSegment[][]) {
    this.#list = list;
    this.#longest = list.reduce((n, m) => Math.max(n, m.length), -1);
  }
  covers(node: PathNode): boolean {
    if (node.depth > this.#longest) return false;
    const segments = segmentsOf(node);
    return this.#list.some((mask) => masks(mask, segments));
  }
}

export type JsonKind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export function kindOf(value: JsonValue): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'boolean' | 'number' | 'string' | 'object';
}

const SNIPPET_CHARS = 160;
const STOP = Symbol('stop');

// Bounded JSON text of a value for messages: never more than SNIPPET_CHARS, never the whole of a huge value.
export function snippet(value: JsonValue | undefined): string {
  if (value === undefined) return '(nothing)';
  let out = '';
  try {
    writeJsonText(value, (piece) => {
      out += piece;
      if (out.length > SNIPPET_CHARS) throw STOP;
    });
  } catch (error) {
    if (error !== STOP) throw error;
    return `${out.slice(0, SNIPPET_CHARS)}…`;
  }
  return out;
}

const has = (record: object, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);

function presence(
  node: PathNode,
  expected: JsonValue | undefined,
  actual: JsonValue | undefined,
): Difference | undefined {
  if (expected === undefined && actual === undefined) return undefined;
  if (expected === undefined)
    return { path: pathText(node), reason: 'not expected here', expected: '(nothing)', actual: snippet(actual) };
  if (actual === undefined)
    return { path: pathText(node), reason: 'missing', expected: snippet(expected), actual: '(nothing)' };
  return undefined;
}

type Task =
  | { kind: 'compare'; node: PathNode; expected: JsonValue | undefined; actual: JsonValue | undefined }
  | { kind: 'check'; run: () => Difference | undefined };

// The first place (in the expected value's order) where `actual` differs from `expected`; masked paths only need
// to be present on both sides or on neither.
export function firstExactDifference(
  expected: JsonValue | undefined,
  actual: JsonValue | undefined,
  maskList: readonly MaskSegment[][] = [],
): Difference | undefined {
  const masked = new Masks(maskList);
  const stack: Task[] = [{ kind: 'compare', node: ROOT, expected, actual }];
  while (stack.length > 0) {
    const task = stack.pop() as Task;
    if (task.kind === 'check') {
      const found = task.run();
      if (found !== undefined) return found;
      continue;
    }
    const { node, expected: e, actual: a } = task;
    const absent = presence(node, e, a);
    if (absent !== undefined) return absent;
    if (e === undefined || a === undefined || masked.covers(node)) continue;
    const ek = kindOf(e);
    const ak = kindOf(a);
    if (ek !== ak)
      return {
        path: pathText(node),
        reason: `expected ${article(ek)}, got ${article(ak)}`,
        expected: snippet(e),
        actual: snippet(a),
      };
    if (ek === 'array') {
      const ea = e as JsonValue[];
      const aa = a as JsonValue[];
      // items first (the first differing item says more than a length), then the length
      stack.push({
        kind: 'check',
        run: () =>
          ea.length === aa.length
            ? undefined
            : {
                path: pathText(node),
                reason: `expected ${count(ea.length, 'item')}, got ${aa.length}`,
                expected: snippet(e),
                actual: snippet(a),
              },
      });
      for (let i = Math.min(ea.length, aa.length) - 1; i >= 0; i--)
        stack.push({ kind: 'compare', node: child(node, i), expected: ea[i], actual: aa[i] });
    } else if (ek === 'object') {
      const eo = e as { [key: string]: JsonValue };
      const ao = a as { [key: string]: JsonValue };
      stack.push({
        kind: 'check',
        run: () => {
          const extra = Object.keys(ao).find((key) => !has(eo, key));
          if (extra === undefined) return undefined;
          const at = child(node, extra);
          return masked.covers(at)
            ? undefined
            : { path: pathText(at), reason: 'not expected here', expected: '(nothing)', actual: snippet(ao[extra]) };
        },
      });
      const keys = Object.keys(eo);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({
          kind: 'compare',
          node: child(node, key),
          expected: eo[key],
          actual: has(ao, key) ? ao[key] : undefined,
        });
      }
    } else if (e !== a) {
      return { path: pathText(node), reason: 'different value', expected: snippet(e), actual: snippet(a) };
    }
  }
  return undefined;
}

// --- shapes: types and keys, not values; an array's shape is the set of its items' shapes (any length)

type Hashes = Map<object, string>;
const MASKED = '*';

// Post-order, iterative: every container's shape hash from its children's (masked paths hash as "anything").
function shapeHashes(root: JsonValue, masked: Masks): { hashes: Hashes; rootHash: string } {
  const hashes: Hashes = new Map();
  const scalar = (value: JsonValue): string => kindOf(value);
  const hashOf = (value: JsonValue, node: PathNode): string =>
    masked.covers(node)
      ? MASKED
      : value !== null && typeof value === 'object'
        ? (hashes.get(value) as string)
        : scalar(value);
  traverseJson(root, {
    // a masked container is "anything": its children are not hashed
    enter: (_value, node) => (masked.covers(node) ? 'skip' : undefined),
    leave: (container, node) => {
      const value = container as JsonValue[] | { [key: string]: JsonValue };
      const hash = createHash('sha1');
      if (Array.isArray(value)) {
        hash.update('[');
        for (const item of [...new Set(value.map((item, i) => hashOf(item, child(node, i))))].sort())
          hash.update(`${item},`);
      } else {
        hash.update('{');
        for (const key of Object.keys(value).sort())
          hash.update(`${JSON.stringify(key)}:${hashOf(value[key] as JsonValue, child(node, key))},`);
      }
      hashes.set(value, hash.digest('base64'));
    },
  });
  return { hashes, rootHash: hashOf(root, ROOT) };
}

// `{ name: string, tags: [string] }`, bounded: for explaining a shape difference.
export function describeShape(value: JsonValue | undefined, budget = SNIPPET_CHARS): string {
  if (value === undefined) return '(nothing)';
  let out = '';
  const write = (v: JsonValue): void => {
    if (out.length > budget) return;
    if (v === null || typeof v !== 'object') {
      out += kindOf(v);
      return;
    }
    if (Array.isArray(v)) {
      const seen = new Map<string, JsonValue>();
      for (const item of v) if (!seen.has(kindOf(item))) seen.set(kindOf(item), item);
      out += '[';
      [...seen.values()].forEach((item, i) => {
        if (i > 0) out += ' | ';
        write(item);
      });
      out += ']';
      return;
    }
    out += '{ ';
    Object.keys(v).forEach((key, i) => {
      if (i > 0) out += ', ';
      out += /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
      out += ': ';
      write(v[key] as JsonValue);
    });
    out += ' }';
  };
  write(value);
  return out.length > budget ? `${out.slice(0, budget)}…` : out;
}

// Same types and keys at every level (values may differ; arrays may differ in length, not in their items' shapes).
export function firstShapeDifference(
  expected: JsonValue | undefined,
  actual: JsonValue | undefined,
  maskList: readonly MaskSegment[][] = [],
): Difference | undefined {
  const absent = presence(ROOT, expected, actual);
  if (absent !== undefined) return { ...absent, expected: describeShape(expected), actual: describeShape(actual) };
  if (expected === undefined || actual === undefined) return undefined;
  const masked = new Masks(maskList);
  const left = shapeHashes(expected, masked);
  const right = shapeHashes(actual, masked);
  const hashAt = (side: { hashes: Hashes }, value: JsonValue, node: PathNode): string =>
    masked.covers(node)
      ? MASKED
      : value !== null && typeof value === 'object'
        ? (side.hashes.get(value) as string)
        : kindOf(value);
  let node = ROOT;
  let e: JsonValue = expected;
  let a: JsonValue = actual;
  // descends along the first differing child: a shape difference has one deepest explanation
  for (;;) {
    if (hashAt(left, e, node) === hashAt(right, a, node)) return undefined;
    const ek = kindOf(e);
    const ak = kindOf(a);
    const here = (reason: string, ev: JsonValue | undefined = e, av: JsonValue | undefined = a): Difference => ({
      path: pathText(node),
      reason,
      expected: describeShape(ev),
      actual: describeShape(av),
    });
    if (ek !== ak) return here(`expected ${article(ek)}, got ${article(ak)}`);
    if (ek === 'object') {
      const eo = e as { [key: string]: JsonValue };
      const ao = a as { [key: string]: JsonValue };
      const missing = Object.keys(eo).find((key) => !has(ao, key) && !masked.covers(child(node, key)));
      if (missing !== undefined) {
        node = child(node, missing);
        return here('missing', eo[missing], undefined);
      }
      const extra = Object.keys(ao).find((key) => !has(eo, key) && !masked.covers(child(node, key)));
      if (extra !== undefined) {
        node = child(node, extra);
        return here('not expected here', undefined, ao[extra]);
      }
      const key = Object.keys(eo).find(
        (k) =>
          has(ao, k) &&
          hashAt(left, eo[k] as JsonValue, child(node, k)) !== hashAt(right, ao[k] as JsonValue, child(node, k)),
      );
      if (key === undefined) return here('different shape');
      node = child(node, key);
      e = eo[key] as JsonValue;
      a = ao[key] as JsonValue;
      continue;
    }
    if (ek === 'array') {
      const ea = e as JsonValue[];
      const aa = a as JsonValue[];
      const expectedShapes = new Set(ea.map((item, i) => hashAt(left, item, child(node, i))));
      const stray = aa.findIndex((item, i) => !expectedShapes.has(hashAt(right, item, child(node, i))));
      if (stray !== -1) {
        const item = aa[stray] as JsonValue;
        if (ea.length === 0) return here('expected an empty array');
        // the expected item of the same kind explains best (descend into it when there is exactly one shape to match)
        const sameKind = ea.find((x) => kindOf(x) === kindOf(item));
        if (expectedShapes.size === 1 && sameKind !== undefined) {
          node = child(node, stray);
          e = sameKind;
          a = item;
          continue;
        }
        node = child(node, stray);
        return here('an item shaped unlike every expected item', sameKind ?? ea[0], item);
      }
      const actualShapes = new Set(aa.map((item, i) => hashAt(right, item, child(node, i))));
      const lost = ea.findIndex((item, i) => !actualShapes.has(hashAt(left, item, child(node, i))));
      const item = ea[lost === -1 ? 0 : lost];
      return here(
        aa.length === 0 ? 'expected items, got an empty array' : `no item shaped like expected item [${lost}]`,
        item,
        aa.length === 0 ? a : aa[0],
      );
    }
    return here('different shape');
  }
}

function article(kind: string): string {
  return kind === 'array' || kind === 'object' ? `an ${kind}` : kind === 'null' ? 'null' : `a ${kind}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
