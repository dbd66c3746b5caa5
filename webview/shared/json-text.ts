import type { JsonValue } from '../../runtime/protocol/json-value.js';

export interface JsonTextOptions {
  // spaces per level, like JSON.stringify's third argument (capped at 10 the same way)
  indent?: number;
  // sorted object keys (canonical form for comparisons)
  sortKeys?: boolean;
}

type Frame =
  | { kind: 'array'; items: JsonValue[]; next: number; pad: string }
  | { kind: 'object'; record: Record<string, JsonValue>; keys: string[]; next: number; pad: string };

// JSON.stringify for JSON values without recursion: V8's own overflows the stack near 5 000 levels.
export function jsonText(value: JsonValue, options: JsonTextOptions = {}): string {
  const step = ' '.repeat(Math.max(0, Math.min(10, Math.trunc(options.indent ?? 0))));
  const pretty = step.length > 0;
  const out: string[] = [];
  const stack: Frame[] = [];
  let pending: JsonValue | undefined = value;
  let pad = '';
  for (;;) {
    if (pending !== undefined) {
      const v: JsonValue = pending;
      pending = undefined;
      if (v === null || typeof v !== 'object') out.push(JSON.stringify(v));
      else if (Array.isArray(v)) {
        if (v.length === 0) out.push('[]');
        else {
          out.push('[');
          stack.push({ kind: 'array', items: v, next: 0, pad });
        }
      } else {
        const keys = Object.keys(v);
        if (options.sortKeys === true) keys.sort();
        if (keys.length === 0) out.push('{}');
        else {
          out.push('{');
          stack.push({ kind: 'object', record: v, keys, next: 0, pad });
        }
      }
    }
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    const size = top.kind === 'array' ? top.items.length : top.keys.length;
    if (top.next >= size) {
      stack.pop();
      pad = top.pad;
      out.push(pretty ? `\n${pad}${top.kind === 'array' ? ']' : '}'}` : top.kind === 'array' ? ']' : '}');
      continue;
    }
    const inner = top.pad + step;
    if (top.next > 0) out.push(',');
    if (pretty) out.push(`\n${inner}`);
    if (top.kind === 'array') pending = top.items[top.next] as JsonValue;
    else {
      const key = top.keys[top.next] as string;
      out.push(JSON.stringify(key), pretty ? ': ' : ':');
      pending = top.record[key] as JsonValue;
    }
    top.next += 1;
    pad = inner;
  }
  return out.join('');
}
