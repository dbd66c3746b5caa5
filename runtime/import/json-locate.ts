import type { FieldPath } from './import-error.js';

interface Frame {
  kind: 'object' | 'array';
  index: number;
  key: string | undefined;
  expectKey: boolean;
  onPath: boolean;
}

// Offset where the value at `path` starts in valid JSON text, or where its deepest existing ancestor starts; one
// pass, no recursion, memory bounded by the nesting depth (an error message must not cost a map of every value).
export function offsetOfPath(text: string, path: FieldPath): { offset: number; depth: number } {
  const stack: Frame[] = [];
  let best = { offset: firstValue(text), depth: 0 };
  const begin = (at: number): boolean => {
    const depth = stack.length;
    const parent = stack[depth - 1];
    const onPath = parent === undefined ? true : parent.onPath && depth <= path.length && segmentOf(parent) === path[depth - 1];
    if (onPath && depth > best.depth) best = { offset: at, depth };
    return onPath;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    const top = stack[stack.length - 1];
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectKey) {
        top.key = JSON.parse(text.slice(i, end)) as string;
        top.expectKey = false;
      } else if (begin(i) && best.depth === path.length) return best;
      i = end - 1;
      continue;
    }
    if (c === 0x3a) continue; // ':'
    if (c === 0x2c) {
      // ','
      if (top?.kind === 'array') top.index++;
      else if (top !== undefined) top.expectKey = true;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      const closed = stack.pop();
      // leaving a container on the path: the path goes no deeper than what was found
      if (closed?.onPath === true) return best;
      continue;
    }
    const onPath = begin(i);
    if (onPath && best.depth === path.length) return best;
    if (c === 0x7b || c === 0x5b) stack.push({ kind: c === 0x7b ? 'object' : 'array', index: 0, key: undefined, expectKey: c === 0x7b, onPath });
    else while (i + 1 < text.length && !/[\s,\]}]/.test(text[i + 1] as string)) i++;
  }
  return best;
}

function segmentOf(frame: Frame): string | number | undefined {
  return frame.kind === 'array' ? frame.index : frame.key;
}

function firstValue(text: string): number {
  const at = text.search(/\S/);
  return at === -1 ? 0 : at;
}

// Index just past the closing quote of the string starting at `start`.
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return text.length;
}
