// Splits text into plain runs and invisible-but-dangerous characters (C0 controls, bidi overrides) shown as markers.
export type TextSegment = { text: string; control?: undefined } | { text: string; control: number };

// C0 controls except tab and newline, DEL, and bidi embedding/override/isolate controls (trojan-source characters).
const SPECIAL = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;

export function segmentVisible(text: string): TextSegment[] {
  SPECIAL.lastIndex = 0;
  if (!SPECIAL.test(text)) return [{ text }];
  SPECIAL.lastIndex = 0;
  const out: TextSegment[] = [];
  let last = 0;
  for (let m = SPECIAL.exec(text); m !== null; m = SPECIAL.exec(text)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    const code = text.charCodeAt(m.index);
    out.push({ text: markerFor(code), control: code });
    last = m.index + 1;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

// Control Pictures block for C0/DEL ("␀"), a code-point label for bidi controls.
export function markerFor(code: number): string {
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function codePointName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
