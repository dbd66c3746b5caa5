// Python naming for the SDK stub: keywords, attribute-safe names, and a registry of unique module-level names.
import { PYTHON_KEYWORDS } from '../contract/identifiers.js';

export const PY_KEYWORDS: ReadonlySet<string> = PYTHON_KEYWORDS;

// Names the stub's annotations use; a method or class with one of these names would shadow it.
export const PY_BUILTINS_USED: ReadonlySet<string> = new Set(['bool', 'float', 'int', 'str', 'Exception']);

export const TYPING_SYMBOLS = [
  'Awaitable',
  'Callable',
  'Dict',
  'List',
  'Literal',
  'Optional',
  'Protocol',
  'TypedDict',
  'Union',
  'overload',
] as const;

// ASCII only: CPython NFKC-normalizes identifiers, so a non-ASCII name could reach a different attribute.
const ASCII_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isPyIdentifier(name: string): boolean {
  return ASCII_IDENTIFIER.test(name) && !PY_KEYWORDS.has(name);
}

// A member reachable as `ns.name`: identifier, no leading underscore (private/mangled names stay subscript-only).
export function isAttributeSafe(name: string, taken: ReadonlySet<string>): boolean {
  return isPyIdentifier(name) && !name.startsWith('_') && !taken.has(name);
}

// `my-tool` → `MyTool`, `get_env` → `GetEnv`; names with no ASCII letters or digits fall back to `fallback`.
export function pascal(name: string, fallback: string): string {
  const parts = name.split(/[^A-Za-z0-9]+/).filter((p) => p.length > 0);
  const joined = parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
  if (joined.length === 0) return fallback;
  return /^[0-9]/.test(joined) ? `${fallback}${joined}` : joined;
}

export class NameRegistry {
  readonly #taken = new Set<string>([...PY_KEYWORDS, ...PY_BUILTINS_USED, ...TYPING_SYMBOLS, 'JsonValue']);

  reserve(name: string): void {
    this.#taken.add(name);
  }

  // `base`, or `base2`, `base3`… when taken.
  claim(base: string): string {
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) name = `${base}${n}`;
    this.#taken.add(name);
    return name;
  }

  get taken(): ReadonlySet<string> {
    return this.#taken;
  }
}

// A Python string literal: JSON string syntax is valid Python (lone surrogates stay `\uXXXX` escapes).
export const pyString = (text: string): string => JSON.stringify(text);

// A docstring body line: backslashes escaped, and any quote followed by another, so no text can close the literal
// early.
export function pyDocText(line: string): string {
  return line
    .replace(/\\/g, '\\\\')
    .replace(/"(?=")/g, '\\"')
    .replace(/[\uD800-\uDFFF]/g, (c, offset: number, all: string) => {
      const code = c.charCodeAt(0);
      const paired =
        code <= 0xdbff ? /[\uDC00-\uDFFF]/.test(all[offset + 1] ?? '') : /[\uD800-\uDBFF]/.test(all[offset - 1] ?? '');
      return paired ? c : `\\u${code.toString(16)}`;
    });
}
