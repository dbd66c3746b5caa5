// Program-controlled text made inert for a terminal: control characters are shown as escapes, never sent raw, so a
// program cannot set the window title, write the clipboard (OSC 52), clear the screen or reorder text (bidi overrides).

// C0 controls except tab and newline, DEL, C1 controls, and the bidi marks, embeddings, overrides and isolates.
const SPECIAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const SPECIAL_ALL = new RegExp(SPECIAL.source, 'g');
const SPECIAL_OR_NEWLINE_ALL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const hex = (code: number, width: number): string => code.toString(16).padStart(width, '0');

// `\x1b` for a byte-sized control, `\u202e` for a bidi control.
function escapeText(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

// Inside JSON text the same characters become JSON escapes (`\u009b`), so the text stays valid JSON.
function escapeJson(char: string): string {
  return `\\u${hex(char.charCodeAt(0), 4)}`;
}

// Text for a terminal; `newlines: false` also escapes line breaks (for one-line fields such as a cell title).
export function visibleText(text: string, options: { newlines?: boolean } = {}): string {
  const keepNewlines = options.newlines ?? true;
  if (keepNewlines && !SPECIAL.test(text)) return text;
  return text.replace(keepNewlines ? SPECIAL_ALL : SPECIAL_OR_NEWLINE_ALL, escapeText);
}

// A piece of JSON text for a terminal (JSON already escapes C0 controls; DEL, C1 and bidi controls it writes raw).
export function visibleJson(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, escapeJson) : text;
}
