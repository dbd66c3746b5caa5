import {
  ArrayIsArray as isArray,
  ArrayPrototype as ArrayProto,
  ArrayPrototypeSort as sort,
  BufferByteLength,
  JSONStringify as stringify,
  NumberIsFinite as numberIsFinite,
  ObjectGetOwnPropertyDescriptor as getOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames as getOwnPropertyNames,
  ObjectGetOwnPropertySymbols as getOwnPropertySymbols,
  ObjectGetPrototypeOf as getPrototypeOf,
  ObjectIs as objectIs,
  ObjectKeys as objectKeys,
  ObjectPrototype as ObjectProto,
  ObjectPrototypeHasOwnProperty as hasOwn,
  isError,
  ReflectApply,
  setIndex,
  SetCtor,
  SetPrototypeAdd,
  SetPrototypeDelete,
  SetPrototypeHas,
  StringCtor,
  StringPrototypeSlice as slice,
  UtilInspect as inspect,
  UtilTypesIsProxy as isProxy,
} from './primordials.js';
import { capMiddle, capText, MAX_PATH_KEY_CHARS } from '../output/diagnostic.js';

// One iterative walk that validates a value as lossless JSON and (optionally) writes its text, in memory bounded by
// the nesting depth plus the text itself: no per-element bookkeeping, no list of an array's keys, the text gathered in
// chunks of about CHUNK_CHARS and metered against a byte budget as it grows (so a value far over the budget costs only
// the budget). The Node child runs it after model code may have patched prototypes: captured intrinsics only, and its
// stacks grown by index with their own counters.
//
// The rule, the same for every crossing (completion, arguments, binding results): null, booleans, strings, finite
// numbers other than -0, and acyclic
//   - arrays: Array.isArray, not a proxy, an Array.prototype as prototype, every index an own property, no other own
//     property (named, non-enumerable or symbol);
//   - plain objects: not a proxy, Object.prototype or null as prototype, own enumerable string keys only (no symbol or
//     non-enumerable keys).
// Each property is read once, as JSON.stringify would read it: an accessor's getter runs once and its result is what
// crosses (and what is checked). A container must keep its shape while it is read: a getter that adds elements or keys
// to a container being read makes the value lossy rather than silently dropping them.

export type WalkOutcome =
  | { ok: true; parts: string[]; partCount: number; bytes: number; depth: number; accessors: boolean }
  | { ok: false; kind: 'lossy'; reason: string }
  | { ok: false; kind: 'over-budget' };

export interface WalkOptions {
  // write the text (false: validate only)
  emit: boolean;
  // object keys in sorted order (canonical JSON)
  sorted: boolean;
  // bytes of UTF-8 the text may take; the walk stops as soon as it is certainly over
  budget: number;
  // read through property descriptors, so `accessors` says whether any getter ran (the host records a snapshot then)
  track: boolean;
}

const CHUNK_CHARS = 1 << 16;
// arrays up to this length are checked for extra properties by listing their keys; longer ones without listing
// every index (which costs a string per element)
const LISTED_ARRAY_MAX = 256;

// foreign-realm plain objects: their prototype is another realm's Object.prototype
function isPlainObject(value: object): boolean {
  const proto: unknown = getPrototypeOf(value);
  if (proto === null || proto === ObjectProto) return true;
  return (
    proto !== null &&
    typeof proto === 'object' &&
    getPrototypeOf(proto) === null &&
    'hasOwnProperty' in (proto as object)
  );
}

// An Array.prototype (this realm's or another's, which is itself an array whose prototype is that realm's
// Object.prototype); a replaced or forged prototype carries behaviour JSON cannot.
function isPlainArray(value: object): boolean {
  const proto: unknown = getPrototypeOf(value);
  if (proto === ArrayProto) return true;
  if (proto === null || typeof proto !== 'object' || !isArray(proto)) return false;
  const objectProto: unknown = getPrototypeOf(proto);
  return (
    objectProto !== null &&
    typeof objectProto === 'object' &&
    objectProto !== ObjectProto &&
    getPrototypeOf(objectProto) === null &&
    'hasOwnProperty' in objectProto &&
    'push' in proto
  );
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return StringCtor(value === 0 ? '-0' : value);
  if (typeof value === 'bigint') return 'a bigint';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  return 'a non-plain object';
}

const INSPECT_KEYS = {
  showHidden: true,
  depth: 0,
  customInspect: false,
  showProxy: true,
  maxArrayLength: 0,
  maxStringLength: 0,
  breakLength: Number.POSITIVE_INFINITY,
  compact: true,
  getters: false,
  sorted: false,
} as const;
const sample: unknown[] = [0, 0];

// Whether an array has own properties other than its indices and `length` (symbols included). Short arrays list their
// keys; long ones are rendered by util.inspect with no elements shown, which lists exactly the non-index own properties
// (V8 skips the indices without materialising them): the text must be what a bare array of that length renders as.
function hasOnlyIndexKeys(array: unknown[], length: number): boolean {
  if (getOwnPropertySymbols(array).length > 0) return false;
  if (length <= LISTED_ARRAY_MAX) return getOwnPropertyNames(array).length === length + 1;
  // the same prototype renders the same prefix (a constructor name the program changed, a toStringTag)
  const reference = inspect(sample, INSPECT_KEYS);
  const head = reference.length - '[ ... 2 more items, [length]: 2 ]'.length;
  const expected = `${slice(reference, 0, head)}[ ... ${length} more items, [length]: ${length} ]`;
  return inspect(array, INSPECT_KEYS) === expected;
}

// What a getter (or a proxy-like prototype's trap) threw, for the message: read defensively, it is program code too.
function describeThrownValue(thrown: unknown): string {
  try {
    if (isError(thrown))
      return capText(
        `${StringCtor((thrown as Error).name)}: ${StringCtor((thrown as Error).message)}`,
        MAX_PATH_KEY_CHARS,
      );
    return capText(
      typeof thrown === 'string'
        ? thrown
        : typeof thrown === 'object' && thrown !== null
          ? 'an object'
          : StringCtor(thrown),
      MAX_PATH_KEY_CHARS,
    );
  } catch {
    return 'an unrenderable value';
  }
}

// A getter that throws (or anything else of the program's that runs while the value is read) makes the value lossy at
// the path being read, never an exception of the caller's: the runtime's own state is local to the walk, so nothing
// stays held for the next value.
export function walkJson(root: unknown, options: WalkOptions): WalkOutcome {
  const state = { path: () => '$' };
  try {
    return walkJsonUnguarded(root, options, state);
  } catch (thrown) {
    return {
      ok: false,
      kind: 'lossy',
      reason: `${state.path()} could not be read (it threw ${describeThrownValue(thrown)})`,
    };
  }
}

function walkJsonUnguarded(root: unknown, options: WalkOptions, state: { path: () => string }): WalkOutcome {
  const { emit, sorted, budget, track } = options;
  // output: finished chunks, the chunk being built, and a lower bound of the bytes so far (one per character)
  const parts: string[] = [];
  let partCount = 0;
  let chunk = '';
  let bytes = 0;
  let accessors = false;
  // one entry per open container: the container, its keys (objects), the next position, its length
  const containers: object[] = [];
  const keyLists: (string[] | undefined)[] = [];
  const positions: number[] = [];
  const lengths: number[] = [];
  let top = 0;
  let maxDepth = 0;
  const onPath = new SetCtor<object>();

  // the path of the value being read (positions point one past it), or of the innermost open container; keys are
  // program text, so each is capped and so is the whole path (its end, which names the value, is kept)
  const pathOf = (depth = top): string => {
    let path = '$';
    for (let i = 0; i < depth; i++) {
      const at = (positions[i] as number) - 1;
      const keys = keyLists[i];
      path += keys === undefined ? `[${at}]` : `.${capText(keys[at] as string, MAX_PATH_KEY_CHARS)}`;
    }
    return capMiddle(path);
  };
  state.path = () => pathOf();
  const lossy = (reason: string): WalkOutcome => ({ ok: false, kind: 'lossy', reason });
  const seal = (): void => {
    if (chunk.length === 0) return;
    bytes += BufferByteLength(chunk, 'utf8') - chunk.length;
    setIndex(parts, partCount++, chunk);
    chunk = '';
  };
  // `bytes` counts every written character once; sealing adds what multi-byte characters cost beyond that
  const put = (text: string): boolean => {
    bytes += text.length;
    if (bytes > budget) return false;
    chunk += text;
    if (chunk.length >= CHUNK_CHARS) {
      seal();
      if (bytes > budget) return false;
    }
    return true;
  };
  // one read of an own property: a getter runs once (with the container as `this`)
  const read = (container: object, key: string | number): unknown => {
    if (!track) return (container as Record<string | number, unknown>)[key];
    const d = getOwnPropertyDescriptor(container, key) as PropertyDescriptor;
    if (hasOwn(d, 'value')) return d.value;
    accessors = true;
    const get = d.get;
    return get === undefined ? undefined : ReflectApply(get, container, []);
  };
  const over: WalkOutcome = { ok: false, kind: 'over-budget' };

  let value: unknown = root;
  while (true) {
    // the value at the current position
    if (value === null) {
      if (emit && !put('null')) return over;
    } else if (typeof value === 'string') {
      if (emit) {
        // every character costs at least one byte: a string past the budget is never escaped
        if (bytes + value.length + 2 > budget) return over;
        if (!put(stringify(value))) return over;
      }
    } else if (typeof value === 'number') {
      if (!numberIsFinite(value) || objectIs(value, -0)) return lossy(`${pathOf()} is ${describe(value)}`);
      if (emit && !put(`${value}`)) return over;
    } else if (typeof value === 'boolean') {
      if (emit && !put(value ? 'true' : 'false')) return over;
    } else if (typeof value === 'object') {
      if (SetPrototypeHas(onPath, value)) return lossy(`${pathOf()} is a cycle`);
      // a proxy's traps are program code that can answer differently every time it is asked
      if (isProxy(value)) return lossy(`${pathOf()} is a proxy`);
      let keys: string[] | undefined;
      let length: number;
      if (isArray(value)) {
        if (!isPlainArray(value)) return lossy(`${pathOf()} is an array with a replaced prototype`);
        length = (value as unknown[]).length;
        if (emit && !put('[')) return over;
      } else {
        if (!isPlainObject(value)) return lossy(`${pathOf()} is ${describe(value)}`);
        keys = objectKeys(value);
        if (sorted) sort(keys);
        length = keys.length;
        if (emit && !put('{')) return over;
      }
      SetPrototypeAdd(onPath, value);
      setIndex(containers, top, value);
      setIndex(keyLists, top, keys);
      setIndex(positions, top, 0);
      setIndex(lengths, top, length);
      top++;
      if (top > maxDepth) maxDepth = top;
    } else {
      return lossy(`${pathOf()} is ${describe(value)}`);
    }
    // the next position: close finished containers, write separators and keys
    let found = false;
    while (top > 0) {
      const at = top - 1;
      const position = positions[at] as number;
      const container = containers[at] as object;
      const keys = keyLists[at];
      const length = lengths[at] as number;
      if (position < length) {
        positions[at] = position + 1;
        if (keys === undefined) {
          // own only: a hole would read whatever the prototype says
          if (!hasOwn(container, position)) return lossy(`${pathOf()} is a hole`);
          if (emit && position > 0 && !put(',')) return over;
          value = read(container, position);
        } else {
          const key = keys[position] as string;
          if (!hasOwn(container, key)) return lossy(`${pathOf()} was removed while the value was read`);
          if (emit) {
            if (bytes + key.length + 3 > budget) return over;
            if (!put(position > 0 ? `,${stringify(key)}:` : `${stringify(key)}:`)) return over;
          }
          value = read(container, key);
        }
        found = true;
        break;
      }
      // the shape is checked once everything in it was read: getters may have changed it meanwhile
      if (keys === undefined) {
        if ((container as unknown[]).length !== length) return lossy(`${pathOf(at)} changed length while it was read`);
        if (!hasOnlyIndexKeys(container as unknown[], length))
          return lossy(`${pathOf(at)} is an array with properties besides its elements`);
      } else {
        if (getOwnPropertySymbols(container).length > 0) return lossy(`${pathOf(at)} has symbol keys`);
        if (getOwnPropertyNames(container).length !== length)
          return lossy(`${pathOf(at)} has non-enumerable keys or gained keys while it was read`);
      }
      SetPrototypeDelete(onPath, container);
      top--;
      containers[top] = ObjectProto;
      keyLists[top] = undefined;
      if (emit && !put(keys === undefined ? ']' : '}')) return over;
    }
    if (!found) break;
  }
  seal();
  if (bytes > budget) return over;
  return { ok: true, parts, partCount, bytes, depth: maxDepth, accessors };
}
