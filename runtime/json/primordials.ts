import util from 'node:util';

// Intrinsics captured when this module loads. The Node child bundles it and loads it before any model code runs;
// the program shares that realm and may patch prototypes afterwards, so code that runs after the program starts calls
// these instead of `x.method(...)` (which would look the method up on a prototype the program controls).
const bind = Function.prototype.bind;
const call = Function.prototype.call;

// uncurryThis(String.prototype.slice)(s, 0, 1) === s.slice(0, 1) as it was at load time
export const uncurryThis = bind.bind(call) as <T, A extends unknown[], R>(
  fn: (this: T, ...args: A) => R,
) => (self: T, ...args: A) => R;

export const ReflectApply = Reflect.apply;
export const ObjectCreate = Object.create;
export const ObjectDefineProperty = Object.defineProperty;
export const ObjectFreeze = Object.freeze;
export const ObjectGetPrototypeOf = Object.getPrototypeOf;
export const ObjectKeys = Object.keys;
export const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
export const ObjectGetOwnPropertySymbols = Object.getOwnPropertySymbols;
export const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
export const ObjectIs = Object.is;
export const ObjectPrototype = Object.prototype;
export const ObjectPrototypeHasOwnProperty = uncurryThis(Object.prototype.hasOwnProperty) as (
  self: object,
  key: PropertyKey,
) => boolean;
export const ObjectPrototypePropertyIsEnumerable = uncurryThis(Object.prototype.propertyIsEnumerable) as (
  self: object,
  key: PropertyKey,
) => boolean;
export const ArrayIsArray = Array.isArray;
export const ArrayPrototype = Array.prototype;
export const ArrayPrototypeJoin = uncurryThis(Array.prototype.join) as (
  self: readonly unknown[],
  separator: string,
) => string;
export const ArrayPrototypeSort = uncurryThis(Array.prototype.sort) as <T>(self: T[]) => T[];
export const NumberCtor = Number;
export const NumberIsFinite = Number.isFinite;
export const NumberIsInteger = Number.isInteger;
export const BigIntCtor = BigInt;
export const NumberPrototypeToFixed = uncurryThis(Number.prototype.toFixed);
export const MathMin = Math.min;
export const MathMax = Math.max;
export const MathFloor = Math.floor;
export const MathCeil = Math.ceil;
export const StringCtor = String;
export const StringPrototypeSlice = uncurryThis(String.prototype.slice);
export const StringPrototypeIndexOf = uncurryThis(String.prototype.indexOf);
export const StringPrototypeCharCodeAt = uncurryThis(String.prototype.charCodeAt);
export const StringPrototypeSplit = uncurryThis(
  String.prototype.split as (this: string, separator: string) => string[],
);
export const StringPrototypeStartsWith = uncurryThis(String.prototype.startsWith);
export const RegExpPrototypeExec = uncurryThis(RegExp.prototype.exec);
export const JSONStringify = JSON.stringify;
export const JSONParse = JSON.parse;
export const SetCtor = Set;
export const SetPrototypeHas = uncurryThis(Set.prototype.has) as <T>(self: Set<T>, value: T) => boolean;
export const SetPrototypeAdd = uncurryThis(Set.prototype.add) as <T>(self: Set<T>, value: T) => Set<T>;
export const SetPrototypeDelete = uncurryThis(Set.prototype.delete) as <T>(self: Set<T>, value: T) => boolean;
export const MapCtor = Map;
export const MapPrototypeGet = uncurryThis(Map.prototype.get) as <K, V>(self: Map<K, V>, key: K) => V | undefined;
export const MapPrototypeSet = uncurryThis(Map.prototype.set) as <K, V>(self: Map<K, V>, key: K, value: V) => Map<K, V>;
export const MapPrototypeDelete = uncurryThis(Map.prototype.delete) as <K, V>(self: Map<K, V>, key: K) => boolean;
export const PromiseCtor = Promise;
export const PromisePrototypeThen = uncurryThis(Promise.prototype.then) as <T>(
  self: Promise<T>,
  onFulfilled: (value: T) => unknown,
  onRejected: (reason: unknown) => unknown,
) => Promise<unknown>;
export const ErrorCtor = Error;
export const RangeErrorCtor = RangeError;
export const FunctionPrototypeHasInstance = uncurryThis(Function.prototype[Symbol.hasInstance]) as (
  self: unknown,
  value: unknown,
) => boolean;
export const Uint8ArrayCtor = Uint8Array;
export const BufferByteLength = Buffer.byteLength;
export const UtilInspect = util.inspect;
export const UtilTypesIsProxy = util.types.isProxy;
export const BufferFrom = Buffer.from;
// native UTF-8 decode of any Uint8Array, bypassing Buffer.prototype.toString's own method look-ups
export const BufferPrototypeUtf8Slice = uncurryThis(
  (Buffer.prototype as unknown as { utf8Slice: (this: Uint8Array, start: number, end: number) => string }).utf8Slice,
);

// `value instanceof Error` as at load time, without consulting a patched Symbol.hasInstance
export function isError(value: unknown): boolean {
  return FunctionPrototypeHasInstance(ErrorCtor, value);
}

// Node 20's EventEmitter calls listeners with `handler.apply(this, args)`: an own `apply` keeps a listener of ours
// reachable after the program replaces Function.prototype.apply.
export function withOwnApply<F extends (...args: never[]) => unknown>(listener: F): F {
  const descriptor = ObjectCreate(null) as PropertyDescriptor;
  descriptor.value = (thisArg: unknown, args: ArrayLike<unknown> | undefined) =>
    ReflectApply(listener, thisArg, args ?? []);
  ObjectDefineProperty(listener, 'apply', descriptor);
  return listener;
}

const indexDescriptor = ObjectCreate(null) as PropertyDescriptor;
indexDescriptor.writable = true;
indexDescriptor.enumerable = true;
indexDescriptor.configurable = true;

// `array[index] = value` that still lands when the program planted an accessor for that index on Array.prototype
// (a write to a new index calls it; a throwing or swallowing setter is detected by the length and the value defined).
export function setIndex<T>(array: T[], index: number, value: T): void {
  try {
    array[index] = value;
    if (index < array.length) return;
  } catch {
    // fall through to the define
  }
  indexDescriptor.value = value;
  ObjectDefineProperty(array, index, indexDescriptor);
  indexDescriptor.value = undefined;
}
