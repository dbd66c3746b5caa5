import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import {
  canonicalJson,
  checkLossless,
  decodeLossless,
  encodeLossless,
  encodeWithin,
  parseIterative,
  snapshotLossless,
} from '../../../runtime/json/lossless.js';

describe('lossless JSON', () => {
  test.each([
    [Number.NaN, /is NaN/],
    [-0, /is -0/],
    [Number.POSITIVE_INFINITY, /Infinity/],
    [undefined, /undefined/],
    [() => 1, /function/],
    [new Date(), /non-plain/],
    [
      (() => {
        const a: number[] = [1];
        a[2] = 3;
        return a;
      })(),
      /\$\[1\] is a hole/,
    ],
    [Object.assign([1], { extra: 1 }), /properties besides its elements/],
    [Object.assign([1], { [Symbol('s')]: 1 }), /properties besides its elements/],
    [Object.setPrototypeOf([1], null), /replaced prototype/],
    [Object.setPrototypeOf([1], class Tagged extends Array {}.prototype), /replaced prototype/],
    [Object.setPrototypeOf([1], []), /replaced prototype/],
    [new Proxy([1], {}), /proxy/],
    [new Proxy({}, {}), /proxy/],
    [{ [Symbol('s')]: 1 }, /symbol/],
    [Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }), /non-enumerable/],
  ])('rejects %s', (value, reason) => {
    const r = checkLossless(value);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  test('names the path of the offending value', () => {
    const r = checkLossless({ a: [1, { b: Number.NaN }] });
    expect(r).toEqual({ ok: false, reason: '$.a[1].b is NaN' });
  });

  test('detects cycles but allows shared (acyclic) references', () => {
    const shared = { x: 1 };
    expect(checkLossless({ a: shared, b: shared }).ok).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(checkLossless(cyclic).ok).toBe(false);
  });

  test('null-prototype and __proto__-keyed objects are plain', () => {
    const o = Object.create(null) as Record<string, unknown>;
    o.a = 1;
    expect(checkLossless(o).ok).toBe(true);
    const p = JSON.parse('{"__proto__": 1}');
    expect(encodeLossless(p)).toEqual({ ok: true, text: '{"__proto__":1}' });
  });

  test('encodes and decodes 100 000-deep values without recursion', () => {
    let v: unknown = 0;
    for (let i = 0; i < 100_000; i++) v = { k: [v] };
    const encoded = encodeLossless(v);
    expect(encoded.ok).toBe(true);
    if (!encoded.ok) return;
    const decoded = decodeLossless(encoded.text);
    expect(decoded.ok).toBe(true);
  });

  test('decoding re-checks values JSON.parse accepts but JSON cannot carry losslessly', () => {
    expect(decodeLossless('-0').ok).toBe(false);
    expect(decodeLossless('1e400').ok).toBe(false);
    expect(decodeLossless('{bad').ok).toBe(false);
  });

  test('the iterative parser agrees with JSON.parse on ordinary input', () => {
    const text = '{"a":[1,2.5,-3e2,"s\\"q",true,false,null,{}],"b":{"c":[]}," ":""}';
    expect(parseIterative(text)).toEqual({ ok: true, value: JSON.parse(text) });
    for (const bad of ['[1,]', '{"a"}', '[1 2]', '{"a":1,}', '[', ']', '{"a":1}}'])
      expect(parseIterative(bad).ok).toBe(false);
  });

  test('canonical JSON sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: 1, c: [{ z: 1, y: 2 }] } })).toBe('{"a":{"c":[{"y":2,"z":1}],"d":1},"b":1}');
  });

  test('long arrays are checked for extra properties without listing their indices', () => {
    const plain = new Array(10_000).fill(1);
    expect(checkLossless(plain).ok).toBe(true);
    expect(checkLossless(Object.assign(new Array(10_000).fill(1), { extra: 1 }))).toEqual({
      ok: false,
      reason: '$ is an array with properties besides its elements',
    });
    expect(checkLossless(Object.assign(new Array(10_000).fill(1), { [Symbol('s')]: 1 })).ok).toBe(false);
    const hidden = Object.defineProperty(new Array(10_000).fill(1), 'hidden', { value: 1, enumerable: false });
    expect(checkLossless(hidden).ok).toBe(false);
    const holey = new Array(10_000).fill(1);
    delete holey[9_999];
    expect(checkLossless([holey])).toEqual({ ok: false, reason: '$[0][9999] is a hole' });
  });

  test('encodeWithin writes chunks that join to the JSON text and stops once the budget is certainly passed', () => {
    const value = { a: new Array(50_000).fill('é'), b: [1.5, -2, null, true] };
    const encoded = encodeWithin(value, Number.POSITIVE_INFINITY);
    expect(encoded.ok).toBe(true);
    if (!encoded.ok) return;
    expect(encoded.partCount).toBeGreaterThan(1);
    const text = encoded.parts.slice(0, encoded.partCount).join('');
    expect(text).toBe(JSON.stringify(value));
    expect(encoded.bytes).toBe(Buffer.byteLength(text));
    expect(encodeWithin(value, encoded.bytes).ok).toBe(true);
    expect(encodeWithin(value, encoded.bytes - 1)).toEqual({ ok: false, kind: 'over-budget' });
    expect(encodeWithin('x'.repeat(1_000_000), 100)).toEqual({ ok: false, kind: 'over-budget' });
  });

  test('accessors are read once, and what they answered is what crosses', () => {
    let reads = 0;
    const value = Object.defineProperty({ a: 1 }, 'b', { get: () => ++reads, enumerable: true });
    const list = Object.defineProperty([0, 0], 1, { get: () => ++reads, enumerable: true });
    expect(encodeLossless({ value, list })).toEqual({ ok: true, text: '{"value":{"a":1,"b":1},"list":[0,2]}' });
    expect(reads).toBe(2);
    const snapshot = snapshotLossless({ value });
    expect(snapshot).toEqual({ ok: true, value: { value: { a: 1, b: 3 } }, text: '{"value":{"a":1,"b":3}}' });
    expect(reads).toBe(3);
    if (snapshot.ok)
      expect(Object.getOwnPropertyDescriptor((snapshot.value as { value: object }).value, 'b')?.get).toBeUndefined();
  });

  test('a getter that reshapes a container being read makes the value lossy instead of dropping data', () => {
    const grows: unknown[] = [0];
    Object.defineProperty(grows, 0, { get: () => (grows.push(1), 0), enumerable: true });
    expect(checkLossless(grows)).toEqual({ ok: false, reason: '$ changed length while it was read' });
    const gains: Record<string, unknown> = {};
    Object.defineProperty(gains, 'a', { get: () => ((gains.late = 1), 0), enumerable: true });
    expect(checkLossless(gains)).toEqual({
      ok: false,
      reason: '$ has non-enumerable keys or gained keys while it was read',
    });
  });

  test('arrays and plain objects of another realm are plain', () => {
    expect(encodeLossless(vm.runInNewContext('({ a: [1, { b: 2 }] })'))).toEqual({
      ok: true,
      text: '{"a":[1,{"b":2}]}',
    });
  });
});
