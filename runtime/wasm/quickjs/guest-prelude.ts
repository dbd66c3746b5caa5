// The guest side of the quickjs engine: JavaScript evaluated inside the QuickJS context before the program, as one
// expression whose value is a function of the host's few entry points. The entry points stay in this closure (never
// on a global), and every intrinsic used after the program starts is captured here first: the program owns the rest
// of its realm. What it sends out is JSON text the host parses as hostile input.
import { ASYNC_SITE } from './node-frames.js';

export const GUEST_PRELUDE = String.raw`(function (host, namespaces, deterministic) {
  'use strict';
  const ASYNC_SITE = ${JSON.stringify(ASYNC_SITE)};
  const G = globalThis;
  const apply = Reflect.apply;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const keys = Object.keys;
  const getProto = Object.getPrototypeOf;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const createObject = Object.create;
  const isArray = Array.isArray;
  const hasOwn = Object.prototype.hasOwnProperty;
  const ObjectProto = Object.prototype;
  const ArrayProto = Array.prototype;
  const ErrorCtor = Error;
  const PromiseCtor = Promise;
  const then = Promise.prototype.then;
  const numberIsFinite = Number.isFinite;
  const objectIs = Object.is;
  const StringCtor = String;
  const MapCtor = Map;
  const SetCtor = Set;
  const DateCtor = Date;
  const mapEntries = Map.prototype.entries;
  const setValues = Set.prototype.values;
  const dateToISO = Date.prototype.toISOString;
  const hostCall = host.call;
  const hostLog = host.log;
  const hostSettle = host.settle;
  const hostTimer = host.timer;
  const hostClearTimer = host.clearTimer;

  function describe(value) {
    if (value === undefined) return 'undefined';
    if (typeof value === 'number') return StringCtor(value === 0 ? '-0' : value);
    if (typeof value === 'bigint') return 'a bigint';
    if (typeof value === 'function') return 'a function';
    if (typeof value === 'symbol') return 'a symbol';
    return 'a non-plain object';
  }

  // Lossless JSON or a reason, with the native engine's wording ("$.a is undefined").
  function encode(value, path, onPath) {
    if (value === null) return 'null';
    const type = typeof value;
    if (type === 'string' || type === 'boolean') return stringify(value);
    if (type === 'number') {
      if (!numberIsFinite(value) || objectIs(value, -0)) throw { lossy: path + ' is ' + describe(value) };
      return stringify(value);
    }
    if (type !== 'object') throw { lossy: path + ' is ' + describe(value) };
    if (onPath.has(value)) throw { lossy: path + ' is a cycle' };
    onPath.add(value);
    let text;
    if (isArray(value)) {
      if (getProto(value) !== ArrayProto) throw { lossy: path + ' is an array with a replaced prototype' };
      text = '[';
      for (let i = 0; i < value.length; i++) {
        if (!apply(hasOwn, value, [i])) throw { lossy: path + '[' + i + '] is a hole' };
        text += (i > 0 ? ',' : '') + encode(value[i], path + '[' + i + ']', onPath);
      }
      text += ']';
    } else {
      const proto = getProto(value);
      if (proto !== ObjectProto && proto !== null) throw { lossy: path + ' is a non-plain object' };
      const names = keys(value);
      text = '{';
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        text += (i > 0 ? ',' : '') + stringify(name) + ':' + encode(value[name], path + '.' + name, onPath);
      }
      text += '}';
    }
    onPath.delete(value);
    return text;
  }

  function encodeLossless(value) {
    try {
      return { text: encode(value, '$', new SetCtor()) };
    } catch (thrown) {
      if (thrown !== null && typeof thrown === 'object' && typeof thrown.lossy === 'string') return { lossy: thrown.lossy };
      throw thrown;
    }
  }

  // A thrown value as the host reads it: name, message and stack as strings (never the value itself).
  function thrownText(thrown) {
    try {
      if (thrown !== null && (typeof thrown === 'object' || typeof thrown === 'function')) {
        let stack = '';
        try {
          const raw = thrown.stack;
          if (typeof raw === 'string') stack = raw;
        } catch (_) {}
        const isError = thrown instanceof ErrorCtor || stack !== '';
        if (isError)
          return stringify({ error: true, name: StringCtor(thrown.name === undefined ? 'Error' : thrown.name), message: StringCtor(thrown.message === undefined ? '' : thrown.message), stack: stack });
      }
      return stringify({ error: false, text: StringCtor(thrown) });
    } catch (_) {
      return stringify({ error: false, text: 'an unrenderable value' });
    }
  }

  // A console argument as a JSON mirror the host rebuilds and renders like Node's console (util.format).
  function mirror(value, depth, seen) {
    const type = typeof value;
    if (value === null || type === 'string' || type === 'boolean') return value;
    if (type === 'number') return numberIsFinite(value) && !objectIs(value, -0) ? value : { $: 'number', v: StringCtor(value === 0 ? '-0' : value) };
    if (type === 'undefined') return { $: 'undefined' };
    if (type === 'bigint') return { $: 'bigint', v: StringCtor(value) };
    if (type === 'symbol') return { $: 'symbol', v: StringCtor(value.description === undefined ? '' : value.description) };
    if (type === 'function') return { $: 'function', v: StringCtor(value.name || '') };
    if (seen.has(value)) return { $: 'circular' };
    if (value instanceof ErrorCtor) return { $: 'error', v: parse(thrownText(value)) };
    if (value instanceof DateCtor) {
      try {
        return { $: 'date', v: apply(dateToISO, value, []) };
      } catch (_) {
        return { $: 'date', v: 'Invalid Date' };
      }
    }
    if (depth > 4) return { $: isArray(value) ? 'deep-array' : 'deep-object' };
    seen.add(value);
    let out;
    if (value instanceof MapCtor) {
      const entries = [];
      const it = apply(mapEntries, value, []);
      for (let step = it.next(), n = 0; !step.done && n < 100; step = it.next(), n++) entries[entries.length] = [mirror(step.value[0], depth + 1, seen), mirror(step.value[1], depth + 1, seen)];
      out = { $: 'map', v: entries };
    } else if (value instanceof SetCtor) {
      const items = [];
      const it = apply(setValues, value, []);
      for (let step = it.next(), n = 0; !step.done && n < 100; step = it.next(), n++) items[items.length] = mirror(step.value, depth + 1, seen);
      out = { $: 'set', v: items };
    } else if (isArray(value)) {
      const items = [];
      const length = value.length < 100 ? value.length : 100;
      for (let i = 0; i < length; i++) items[i] = mirror(value[i], depth + 1, seen);
      out = { $: 'array', v: items, more: value.length - length };
    } else {
      const fields = createObject(null);
      const names = keys(value);
      for (let i = 0; i < names.length && i < 1000; i++) fields[names[i]] = mirror(value[names[i]], depth + 1, seen);
      const proto = getProto(value);
      let name = '';
      try {
        name = proto === null ? '[Object: null prototype]' : proto === ObjectProto ? '' : StringCtor(proto.constructor.name);
      } catch (_) {}
      out = { $: 'object', v: fields, name: name };
    }
    seen.delete(value);
    return out;
  }

  function logWith(stream) {
    return function () {
      const items = [];
      for (let i = 0; i < arguments.length; i++) items[i] = mirror(arguments[i], 0, new SetCtor());
      hostLog(stream, stringify(items));
    };
  }
  const out = logWith('stdout');
  const err = logWith('stderr');
  const counts = createObject(null);
  const timers = createObject(null);
  const console = freeze({
    log: out,
    info: out,
    debug: out,
    warn: err,
    error: err,
    trace: err,
    dir: function (value) { out(value); },
    table: function (value) { out(value); },
    assert: function (condition) {
      if (condition) return;
      const rest = [];
      for (let i = 1; i < arguments.length; i++) rest[i - 1] = arguments[i];
      apply(err, undefined, rest.length === 0 ? ['Assertion failed'] : ['Assertion failed:'].concat(rest));
    },
    count: function (label) {
      const name = label === undefined ? 'default' : StringCtor(label);
      counts[name] = (counts[name] || 0) + 1;
      out(name + ': ' + counts[name]);
    },
    countReset: function (label) { delete counts[label === undefined ? 'default' : StringCtor(label)]; },
    time: function (label) { timers[label === undefined ? 'default' : StringCtor(label)] = DateCtor.now(); },
    timeEnd: function (label) {
      const name = label === undefined ? 'default' : StringCtor(label);
      if (timers[name] !== undefined) out(name + ': ' + (DateCtor.now() - timers[name]).toFixed(3) + 'ms');
      delete timers[name];
    },
    timeLog: function (label) {
      const name = label === undefined ? 'default' : StringCtor(label);
      if (timers[name] !== undefined) out(name + ': ' + (DateCtor.now() - timers[name]).toFixed(3) + 'ms');
    },
    group: function () { if (arguments.length > 0) apply(out, undefined, arguments); },
    groupEnd: function () {},
  });

  // Timers over the host's event loop: the callback stays in the guest, the host holds only an id.
  const callbacks = new MapCtor();
  let nextTimer = 1;
  function addTimer(repeat) {
    return function (callback, ms) {
      if (typeof callback !== 'function') throw new TypeError('The "callback" argument must be of type function');
      const args = [];
      for (let i = 2; i < arguments.length; i++) args[i - 2] = arguments[i];
      const id = nextTimer++;
      const delay = typeof ms === 'number' && ms > 0 ? ms : 0;
      callbacks.set(id, { callback: callback, args: args, repeat: repeat, delay: delay });
      hostTimer(id, delay);
      return id;
    };
  }
  function clearTimer(id) {
    if (callbacks.delete(id)) hostClearTimer(id);
  }
  function fireTimer(id) {
    const entry = callbacks.get(id);
    if (entry === undefined) return;
    if (entry.repeat) hostTimer(id, entry.delay);
    else callbacks.delete(id);
    apply(entry.callback, undefined, entry.args);
  }
  G.setTimeout = addTimer(false);
  G.setInterval = addTimer(true);
  G.clearTimeout = clearTimer;
  G.clearInterval = clearTimer;
  G.queueMicrotask = function (callback) {
    apply(then, PromiseCtor.resolve(), [function () { callback(); }]);
  };
  G.structuredClone = function (value) {
    const encoded = encodeLossless(value);
    if (encoded.lossy !== undefined) throw new TypeError('structuredClone in the quickjs engine takes JSON values only: ' + encoded.lossy);
    return parse(encoded.text);
  };

  // Frozen clock and seeded random values (deterministic replays), as the native engines' freezeNondeterminism.
  if (deterministic !== null) {
    const epoch = deterministic.epochMs;
    let state = deterministic.seed >>> 0;
    const RealDate = DateCtor;
    const FrozenDate = function Date() {
      const args = [];
      for (let i = 0; i < arguments.length; i++) args[i] = arguments[i];
      if (!new.target) return new RealDate(epoch).toString();
      return args.length === 0 ? new RealDate(epoch) : Reflect.construct(RealDate, args);
    };
    FrozenDate.prototype = RealDate.prototype;
    FrozenDate.now = function () { return epoch; };
    FrozenDate.parse = RealDate.parse;
    FrozenDate.UTC = RealDate.UTC;
    G.Date = FrozenDate;
    Math.random = function () {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // The binding globals: frozen null-prototype objects of async functions; error classes named as configured.
  const objects = [];
  const errorClasses = [];
  for (let n = 0; n < namespaces.length; n++) {
    const ns = namespaces[n];
    let makeError = function (message) { return new ErrorCtor(message); };
    if (ns.errorClass !== undefined) {
      const name = ns.errorClass.name;
      const member = ns.errorClass.memberNameProperty;
      const cls = class extends ErrorCtor {};
      defineProperty(cls, 'name', { value: name });
      errorClasses[errorClasses.length] = cls;
      makeError = function (message, fn) {
        const error = new cls(message);
        defineProperty(error, 'name', { value: name, enumerable: true, writable: true, configurable: true });
        defineProperty(error, member, { value: fn, enumerable: true, writable: true, configurable: true });
        return error;
      };
    }
    const target = createObject(null);
    for (let i = 0; i < ns.names.length; i++) {
      const name = ns.names[i];
      const label = ns.global + '.' + name;
      const fn = async function (args) {
        // the call site, taken before the first await: QuickJS's stack of an error made after it lacks the program's frame
        const site = new ErrorCtor().stack;
        const encoded = encodeLossless(args === undefined ? null : args);
        if (encoded.lossy !== undefined) throw makeError('arguments to ' + label + ' must be lossless JSON: ' + encoded.lossy, name);
        const replyText = await hostCall(ns.global, name, encoded.text);
        const reply = parse(replyText);
        if (reply.ok === true) return reply.value;
        const error = makeError(typeof reply.message === 'string' ? reply.message : 'binding failed', name);
        if (reply.code !== undefined && !apply(hasOwn, error, ['code'])) defineProperty(error, 'code', { value: reply.code, enumerable: true, writable: true, configurable: true });
        if (reply.data !== undefined && !apply(hasOwn, error, ['data'])) defineProperty(error, 'data', { value: reply.data, enumerable: true, writable: true, configurable: true });
        // marked: the host writes the frames after the marker as V8's async frames (node-frames.ts)
        defineProperty(error, 'stack', { value: ASYNC_SITE + '\n' + site, writable: true, configurable: true });
        throw error;
      };
      defineProperty(fn, 'name', { value: name });
      defineProperty(target, name, { value: fn, enumerable: true });
    }
    objects[n] = freeze(target);
  }

  // Runs the compiled program function and reports its end once: the value as lossless JSON, or what it threw.
  function run(program) {
    let promise;
    try {
      const args = objects.concat(errorClasses);
      args[args.length] = console;
      promise = apply(program, undefined, args);
    } catch (thrown) {
      hostSettle('error', thrown);
      return;
    }
    apply(then, promise, [
      function (value) {
        if (value === undefined) return hostSettle('undefined', '');
        let encoded;
        try {
          encoded = encodeLossless(value);
        } catch (thrown) {
          return hostSettle('error', thrown);
        }
        if (encoded.lossy !== undefined) return hostSettle('lossy', encoded.lossy);
        hostSettle('value', encoded.text);
      },
      function (thrown) {
        hostSettle('error', thrown);
      },
    ]);
  }

  return { run: run, fireTimer: fireTimer, thrownText: thrownText };
})`;
