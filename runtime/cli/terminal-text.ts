// Program-controlled text made inert for a terminal: control characters are shown as escapes, never sent raw, so a
// program cannot set the window title, write the clipboard (OSC 52), clear the screen or reorder text (bidi overrides);
// and invisible characters are shown too, so what a reader sees is what the text holds (no hidden words).

// C0 controls except tab and newline, DEL, C1 controls; the soft hyphen, combining grapheme joiner, Arabic letter
// mark, Hangul fillers, Mongolian vowel separator; zero-width spaces and joiners, LRM/RLM, line and paragraph
// separators, bidi embeddings, overrides and isolates, invisible operators; the byte order mark, interlinear
// annotation marks; and the tag characters (U+E0000–E007F, "ASCII smuggling").
const CLASS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufeff\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}';
// eslint-disable-next-line no-misleading-character-class -- single code points are matched on purpose (joiners too)
const SPECIAL = new RegExp(`[${CLASS}]`, 'u');
// eslint-disable-next-line no-misleading-character-class -- as above
const SPECIAL_ALL = new RegExp(`[${CLASS}]`, 'gu');
// eslint-disable-next-line no-misleading-character-class -- as above
const SPECIAL_OR_NEWLINE_ALL = new RegExp(`[${CLASS}\\n]`, 'gu');

const hex = (code: number, width: number): string => code.toString(16).padStart(width, '0');

// `\x1b` for a byte-sized control, `\u202e` for a bidi control, `\u{e0041}` for a tag character.
function escapeText(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${hex(code, 2)}`;
  return code <= 0xffff ? `\\u${hex(code, 4)}` : `\\u{${hex(code, 5)}}`;
}

// Inside JSON text the same characters become JSON escapes (`\u009b`; a tag character its surrogate pair), so the
// text stays valid JSON and parses to the same string.
function escapeJson(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${hex(char.charCodeAt(i), 4)}`;
  return out;
}

// Text for a terminal; `newlines: false` also escapes line breaks (for one-line fields such as a cell title).
export function visibleText(text: string, options: { newlines?: boolean } = {}): string {
  const keepNewlines = options.newlines ?? true;
  if (keepNewlines && !SPECIAL.test(text)) return text;
  return text.replace(keepNewlines ? SPECIAL_ALL : SPECIAL_OR_NEWLINE_ALL, escapeText);
}

// A piece of JSON text for a terminal (JSON already escapes C0 controls; the others it writes raw).
export function visibleJson(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, escapeJson) : text;
}

// A terminal's budget for text nobody bounded (a bindings module's console): lines are shown until `maxBytes` of
// them were written; then one line says how much more there was, never the rest.
export class CappedLines {
  #left: number;
  #dropped = 0;
  #droppedBytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly write: (line: string) => void,
  ) {
    this.#left = maxBytes;
  }

  // Writes `line` (already visible, no line break) if it fits, cut to what is left if it does not.
  push(line: string): void {
    const bytes = Buffer.byteLength(line) + 1;
    if (this.#left <= 0) {
      this.#dropped++;
      this.#droppedBytes += bytes;
      return;
    }
    if (bytes <= this.#left) {
      this.#left -= bytes;
      return this.write(`${line}\n`);
    }
    // cut at a character boundary within the budget (a 64 KiB line is at most 4 × 64 Ki bytes long)
    const cut = Buffer.from(line)
      .subarray(0, Math.max(0, this.#left - 1))
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    this.#left = 0;
    this.#droppedBytes += bytes - Buffer.byteLength(cut) - 1;
    this.write(`${cut}…\n`);
  }

  // What was not shown, or undefined.
  get summary(): string | undefined {
    if (this.#droppedBytes === 0) return undefined;
    return `${this.#dropped} more line(s) and ${this.#droppedBytes} byte(s) not shown (over the ${this.maxBytes}-byte output cap)`;
  }
}
