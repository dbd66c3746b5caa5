import type { Language } from '../../runtime/index.js';

// A `global.name` / `global["name"]` reference in a cell's code (strings and comments skipped), with its offsets.
export interface BindingReference {
  global: string;
  name: string;
  // offsets of the member name in the cell text
  start: number;
  end: number;
}

// The cell text with every string literal and comment blanked (same length, newlines kept), so a scan of what is
// left sees only code. Template literals are blanked whole; a reference inside `${…}` is not checked (lenient).
export function codeOnly(text: string, language: Language): string {
  const out = text.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to && i < out.length; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const rest = text.slice(i, i + 3);
    if (language === 'python' && c === '#') {
      const end = text.indexOf('\n', i);
      blank(i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (language === 'typescript' && rest.startsWith('//')) {
      const end = text.indexOf('\n', i);
      blank(i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (language === 'typescript' && rest.startsWith('/*')) {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (language === 'python' && (rest === '"""' || rest === "'''")) {
      const end = text.indexOf(rest, i + 3);
      const stop = end < 0 ? text.length : end + 3;
      blank(i + 1, stop - 1);
      i = stop;
    } else if (c === '"' || c === "'" || (language === 'typescript' && c === '`')) {
      let j = i + 1;
      while (j < text.length && text[j] !== c && (c === '`' || text[j] !== '\n')) j += text[j] === '\\' ? 2 : 1;
      // the quotes stay, so `tools["name"]` is still read as a subscript below
      blank(i + 1, Math.min(j, text.length));
      i = j + 1;
    } else i++;
  }
  return out.join('');
}

// Every reference to a member of one of `globals` in the cell: `tools.search`, `tools["my-tool"]`, never
// `x.tools.search`.
export function bindingReferences(text: string, language: Language, globals: readonly string[]): BindingReference[] {
  if (globals.length === 0) return [];
  const code = codeOnly(text, language);
  // a cell that declares or assigns the name itself means something else by it: nothing to check there
  const own = globals.filter((g) => !rebinds(code, g));
  if (own.length === 0) return [];
  const names = own.map((g) => g.replace(/[$]/g, '\\$')).join('|');
  const pattern = new RegExp(`(?<![\\w$.])(${names})\\s*(?:\\.\\s*([A-Za-z_$][\\w$]*)|\\[\\s*(["']))`, 'g');
  const found: BindingReference[] = [];
  for (const match of code.matchAll(pattern)) {
    const global = match[1] as string;
    if (match[2] !== undefined) {
      const start = match.index + match[0].length - match[2].length;
      found.push({ global, name: match[2], start, end: start + match[2].length });
      continue;
    }
    // a subscript: its key is read from the original text (the scan blanked it), only when it is a plain literal
    const quote = match[3] as string;
    const open = match.index + match[0].length;
    const close = text.indexOf(quote, open);
    if (close < 0) continue;
    const key = text.slice(open, close);
    if (/[\\\n]/.test(key) || !/^\s*\]/.test(code.slice(close + 1))) continue;
    found.push({ global, name: key, start: open, end: close });
  }
  return found;
}

function rebinds(code: string, global: string): boolean {
  const name = global.replace(/[$]/g, '\\$');
  return new RegExp(
    `(?:\\b(?:const|let|var|function|class|def|import|as|for|global|nonlocal)\\s+(?:[\\w$]+\\s*,\\s*)*${name}\\b)|(?<![\\w$.])${name}\\s*(?::[^=\\n]*)?=(?!=)|[(,]\\s*${name}\\s*[,):=]`,
  ).test(code);
}
