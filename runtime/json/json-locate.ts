import { pathKey, scanJson, type JsonPath } from './json-scan.js';

// Offset where the value at `path` starts in valid JSON text, or where its deepest existing ancestor starts: one scan
// (json-scan.ts) that records only the values on the path, so an error message never costs a map of every value.
export function offsetOfPath(text: string, path: JsonPath): { offset: number; depth: number } {
  const scan = scanJson(text, {
    spanDepth: path.length,
    uniqueKeys: () => false,
    follow: (at) => at[at.length - 1] === path[at.length - 1],
  });
  if (scan.ok) {
    for (let depth = path.length; depth >= 0; depth--) {
      const span = scan.spans.get(pathKey(path.slice(0, depth)));
      if (span !== undefined) return { offset: span.start, depth };
    }
  }
  const first = text.search(/\S/);
  return { offset: first === -1 ? 0 : first, depth: 0 };
}
