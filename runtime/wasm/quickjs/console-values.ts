import util from 'node:util';

// A console argument from the guest (guest-prelude.ts `mirror`) rebuilt as a host value that util.format renders the
// way Node's console renders the original: the guest's text is parsed data, never code, and no guest object crosses.
type Mirror = null | string | boolean | number | { $: string; v?: unknown; name?: unknown; more?: unknown };

const custom = util.inspect.custom;

function shown(text: string): object {
  return { [custom]: () => text };
}

export function rebuild(mirror: unknown): unknown {
  if (mirror === null || typeof mirror !== 'object') return mirror;
  if (Array.isArray(mirror)) return mirror.map(rebuild);
  const m = mirror as Exclude<Mirror, null | string | boolean | number>;
  const v = m.v;
  switch (m.$) {
    case 'undefined':
      return undefined;
    case 'number':
      return Number(v);
    case 'bigint':
      return typeof v === 'string' && /^-?\d{1,4096}$/.test(v) ? BigInt(v) : shown(`${String(v)}n`);
    case 'symbol':
      return Symbol(String(v));
    case 'function':
      return shown(typeof v === 'string' && v.length > 0 ? `[Function: ${v}]` : '[Function (anonymous)]');
    case 'circular':
      return shown('[Circular]');
    case 'deep-object':
      return shown('[Object]');
    case 'deep-array':
      return shown('[Array]');
    case 'date':
      return shown(String(v));
    case 'error': {
      const e = (v ?? {}) as { error?: unknown; name?: unknown; message?: unknown; stack?: unknown; text?: unknown };
      if (e.error !== true) return shown(String(e.text));
      const headline = String(e.message) === '' ? String(e.name) : `${String(e.name)}: ${String(e.message)}`;
      return shown(
        typeof e.stack === 'string' && e.stack.length > 0 ? `${headline}\n${e.stack.replace(/\n$/, '')}` : headline,
      );
    }
    case 'map':
      return new Map(
        Array.isArray(v)
          ? v.map((entry) => (Array.isArray(entry) ? [rebuild(entry[0]), rebuild(entry[1])] : [undefined, undefined]))
          : [],
      );
    case 'set':
      return new Set(Array.isArray(v) ? v.map(rebuild) : []);
    case 'array': {
      const items = Array.isArray(v) ? v.map(rebuild) : [];
      const more = typeof m.more === 'number' && m.more > 0 ? m.more : 0;
      if (more > 0) items.push(shown(`... ${more} more item${more === 1 ? '' : 's'}`));
      return items;
    }
    case 'object': {
      const name = typeof m.name === 'string' ? m.name : '';
      const target: Record<string, unknown> =
        name === '[Object: null prototype]'
          ? (Object.create(null) as Record<string, unknown>)
          : name === ''
            ? {}
            : named(name);
      if (v !== null && typeof v === 'object')
        for (const key of Object.keys(v)) {
          Object.defineProperty(target, key, {
            value: rebuild((v as Record<string, unknown>)[key]),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      return target;
    }
    default:
      return shown(String(m.$));
  }
}

// An empty object whose constructor is named like the guest's class (util.inspect prints `Point { x: 1 }`).
function named(name: string): Record<string, unknown> {
  const ctor = { [name.slice(0, 200)]: class {} }[name.slice(0, 200)] as new () => Record<string, unknown>;
  return new ctor();
}
