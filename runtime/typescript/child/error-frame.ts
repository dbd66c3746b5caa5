import { JSONStringify as stringify } from '../../json/primordials.js';

// A settling frame for a failure, built as text (the program may have planted toJSON on Object.prototype).
export function errorFrame(kind: string, message: string, location?: { line: number; column?: number }): string {
  const at =
    location === undefined
      ? ''
      : `,"location":{"line":${location.line}${location.column === undefined ? '' : `,"column":${location.column}`}}`;
  return `{"type":"done","error":{"kind":"${kind}","message":${stringify(message)}${at}}}`;
}
