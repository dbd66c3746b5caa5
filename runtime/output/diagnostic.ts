import { StringPrototypeCharCodeAt as charCodeAt, StringPrototypeSlice as slice } from '../json/primordials.js';

// Diagnostics that embed program-controlled text (a key, a binding name, a path, a class name) carry at most this much
// of it; a rendered exception (name, message and the program's frames) at most MAX_EXCEPTION_CHARS. Mirrored by
// python/ptc_errors.py. The Node child uses these after model code: captured intrinsics only.
export const MAX_EMBEDDED_CHARS = 1024;
// one key inside a path (the path as a whole is capped at MAX_EMBEDDED_CHARS)
export const MAX_PATH_KEY_CHARS = 256;
export const MAX_EXCEPTION_CHARS = 16 * 1024;
export const TRUNCATED = '\u2026 [truncated]';
const ELLIPSIS = '\u2026';

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

// The first `end` code units, one fewer if that would split a surrogate pair.
function head(text: string, end: number): string {
  return end > 0 && isHighSurrogate(charCodeAt(text, end - 1)) ? slice(text, 0, end - 1) : slice(text, 0, end);
}

// The code units from `start`, one fewer if that would split a surrogate pair.
function tail(text: string, start: number): string {
  return isLowSurrogate(charCodeAt(text, start)) ? slice(text, start + 1) : slice(text, start);
}

// At most `max` characters: the start of the text and a marker.
export function capText(text: string, max: number = MAX_EMBEDDED_CHARS): string {
  if (text.length <= max) return text;
  return head(text, max - TRUNCATED.length) + TRUNCATED;
}

// At most `max` characters: the start and the end of the text around an ellipsis (for paths, whose end names the
// offending value).
export function capMiddle(text: string, max: number = MAX_EMBEDDED_CHARS): string {
  if (text.length <= max) return text;
  const half = (max - ELLIPSIS.length) >> 1;
  return head(text, half) + ELLIPSIS + tail(text, text.length - half);
}
