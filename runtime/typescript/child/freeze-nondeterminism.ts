// Runs inside the Node child before the program: a fixed clock and seeded random values, so a replay repeats bit for
// bit.
import { seededRandom } from '../../bindings/faults.js';
import type { DeterministicSettings } from '../../protocol/binding-call.js';

export type FreezeSettings = DeterministicSettings;

// Date.now(), new Date(), Date() and performance.now() read a fixed instant; Math.random and Web Crypto draw from
// `seed`.
export function freezeNondeterminism(settings: FreezeSettings): void {
  const random = seededRandom(settings.seed);
  const epoch = settings.epochMs;
  const RealDate = Date;
  RealDate.now = () => epoch;
  const FrozenDate = new Proxy(RealDate, {
    construct: (target, args: unknown[], newTarget: object) =>
      Reflect.construct(target, args.length === 0 ? [epoch] : args, newTarget as typeof RealDate) as object,
    apply: () => new RealDate(epoch).toString(),
  });
  Object.defineProperty(globalThis, 'Date', { value: FrozenDate, writable: true, configurable: true });
  Math.random = random;
  if (typeof performance !== 'undefined')
    Object.defineProperty(performance, 'now', { value: () => 0, writable: true, configurable: true });
  const webCrypto = (globalThis as { crypto?: object }).crypto;
  if (webCrypto !== undefined) {
    const fill = <T extends ArrayBufferView | null>(array: T): T => {
      if (array !== null) {
        const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
        for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
      }
      return array;
    };
    const uuid = (): `${string}-${string}-${string}-${string}-${string}` => {
      const b = fill(new Uint8Array(16));
      b[6] = ((b[6] as number) & 0x0f) | 0x40;
      b[8] = ((b[8] as number) & 0x3f) | 0x80;
      const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    };
    Object.defineProperty(webCrypto, 'getRandomValues', { value: fill, writable: true, configurable: true });
    Object.defineProperty(webCrypto, 'randomUUID', { value: uuid, writable: true, configurable: true });
  }
}
