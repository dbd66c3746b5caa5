import type { Language } from '../../runtime/index.js';

// The arguments of a call read statically, as far as they are literals: what a cell passes to a binding, so its
// shape can be checked before running. Anything that is not a literal (a variable, a call, a spread) is `unknown`
// and never reported on.
export type Literal = { start: number; end: number } & (
  | { kind: 'unknown' }
  | { kind: 'string' }
  | { kind: 'number'; integer: boolean }
  | { kind: 'boolean' }
  | { kind: 'null' }
  | { kind: 'array'; items: Literal[] }
  // open: a spread, `**kwargs` or a computed key may add any field
  | { kind: 'object'; entries: { key: string; keyStart: number; keyEnd: number; value: Literal }[]; open: boolean }
);

// The argument object of the call whose `(` is at `open`: TypeScript's first argument; Python's first positional
// argument, or its keyword arguments as one object. undefined when there is no call there or it cannot be read.
export function callArgument(text: string, open: number, language: Language): Literal | undefined {
  const reader = new Reader(text, language);
  reader.at = open;
  if (text[open] !== '(') return undefined;
  reader.at++;
  const positional: Literal[] = [];
  const kwargs: Extract<Literal, { kind: 'object' }> = {
    kind: 'object',
    entries: [],
    open: false,
    start: open,
    end: open,
  };
  for (;;) {
    reader.skip();
    if (reader.at >= text.length) return undefined;
    if (text[reader.at] === ')') break;
    if (language === 'python') {
      const keyword = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(text.slice(reader.at));
      if (keyword !== null) {
        const keyStart = reader.at;
        reader.at += keyword[0].length;
        kwargs.entries.push({
          key: keyword[1] as string,
          keyStart,
          keyEnd: keyStart + (keyword[1] as string).length,
          value: reader.value(),
        });
      } else if (text.startsWith('**', reader.at) || text[reader.at] === '*') {
        kwargs.open = true;
        reader.value();
      } else positional.push(reader.value());
    } else positional.push(reader.value());
    reader.skip();
    if (text[reader.at] === ',') reader.at++;
    else if (text[reader.at] !== ')') return undefined;
  }
  const close = reader.at + 1;
  if (positional.length > 0)
    return positional.length === 1 && kwargs.entries.length === 0 && !kwargs.open ? positional[0] : undefined;
  // no argument at all: an empty object, placed on the parentheses
  return { ...kwargs, start: open, end: close };
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

class Reader {
  at = 0;
  constructor(
    readonly text: string,
    readonly language: Language,
  ) {}

  // Whitespace and comments.
  skip(): void {
    const t = this.text;
    for (;;) {
      while (this.at < t.length && /\s/.test(t[this.at] as string)) this.at++;
      if (this.language === 'python' && t[this.at] === '#') this.#toLineEnd();
      else if (this.language === 'typescript' && t.startsWith('//', this.at)) this.#toLineEnd();
      else if (this.language === 'typescript' && t.startsWith('/*', this.at)) {
        const end = t.indexOf('*/', this.at + 2);
        this.at = end < 0 ? t.length : end + 2;
      } else return;
    }
  }

  #toLineEnd(): void {
    const end = this.text.indexOf('\n', this.at);
    this.at = end < 0 ? this.text.length : end;
  }

  value(): Literal {
    this.skip();
    const t = this.text;
    const start = this.at;
    const c = t[start];
    if (c === '{') return this.#object();
    if (c === '[') return this.#array();
    const string = this.#string();
    if (string !== undefined) return this.#alone(string);
    const number = /^-?(?:\d[\d_]*(?:\.\d[\d_]*)?|\.\d+)(?:[eE][+-]?\d+)?(?![\w.])/.exec(t.slice(start));
    if (number !== null) {
      this.at += number[0].length;
      // 1.0 and 1e3 are integers to a JSON Schema check, as they are once serialized
      return this.#alone({
        kind: 'number',
        integer: Number.isInteger(Number(number[0].replace(/_/g, ''))),
        start,
        end: this.at,
      });
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(t.slice(start))?.[0];
    const constants: Record<string, 'boolean' | 'null'> =
      this.language === 'python'
        ? { True: 'boolean', False: 'boolean', None: 'null' }
        : { true: 'boolean', false: 'boolean', null: 'null' };
    if (word !== undefined && constants[word] !== undefined) {
      this.at += word.length;
      return this.#alone({ kind: constants[word], start, end: this.at });
    }
    return this.#unknown(start);
  }

  // A literal followed by more expression (`'a' + b`, `1 if x else 2`) is not that literal.
  #alone(literal: Literal): Literal {
    const save = this.at;
    this.skip();
    const next = this.text[this.at];
    if (next === undefined || next === ',' || next === ')' || next === ']' || next === '}' || next === ':') {
      this.at = save;
      return literal;
    }
    return this.#unknown(literal.start);
  }

  // Skips an expression to the `,` or closing bracket that ends it.
  #unknown(start: number): Literal {
    const t = this.text;
    this.at = start;
    const stack: string[] = [];
    while (this.at < t.length) {
      const c = t[this.at] as string;
      if (this.#string() !== undefined) continue;
      if (
        stack.length === 0 &&
        (c === ',' || c === ')' || c === ']' || c === '}' || (c === ':' && this.language === 'python'))
      )
        break;
      if (CLOSERS[c] !== undefined) stack.push(CLOSERS[c]);
      else if (c === stack.at(-1)) stack.pop();
      this.at++;
    }
    return { kind: 'unknown', start, end: this.at };
  }

  // A string literal at the cursor (consumed), or undefined. Template literals with `${` and bytes are not strings.
  #string(): Literal | undefined {
    const t = this.text;
    const start = this.at;
    let i = start;
    let prefix = '';
    if (this.language === 'python') {
      const p = /^[rRbBfFuU]{0,2}(?=["'])/.exec(t.slice(i));
      if (p === null) return undefined;
      prefix = p[0].toLowerCase();
      i += p[0].length;
    }
    const q = t[i];
    if (q !== '"' && q !== "'" && !(q === '`' && this.language === 'typescript')) return undefined;
    const triple = this.language === 'python' && t.startsWith(q.repeat(3), i);
    const delimiter = triple ? q.repeat(3) : q;
    i += delimiter.length;
    let interpolated = false;
    while (i < t.length && !t.startsWith(delimiter, i)) {
      if (t[i] === '\\') i++;
      else if (q === '`' && t.startsWith('${', i)) interpolated = true;
      else if (t[i] === '\n' && !triple && q !== '`') break;
      i++;
    }
    this.at = Math.min(t.length, i + delimiter.length);
    if (interpolated || prefix.includes('b')) return { kind: 'unknown', start, end: this.at };
    return { kind: 'string', start, end: this.at };
  }

  #array(): Literal {
    const start = this.at++;
    const items: Literal[] = [];
    for (;;) {
      this.skip();
      if (this.at >= this.text.length) return { kind: 'unknown', start, end: this.at };
      if (this.text[this.at] === ']') break;
      if (this.text.startsWith('...', this.at) || this.text[this.at] === '*') {
        this.#unknown(this.at);
        return this.#skipRest(start);
      }
      items.push(this.value());
      this.skip();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== ']') return this.#skipRest(start);
    }
    this.at++;
    return this.#alone({ kind: 'array', items, start, end: this.at });
  }

  #object(): Literal {
    const start = this.at++;
    const entries: Extract<Literal, { kind: 'object' }>['entries'] = [];
    let open = false;
    for (;;) {
      this.skip();
      const t = this.text;
      if (this.at >= t.length) return { kind: 'unknown', start, end: this.at };
      if (t[this.at] === '}') break;
      if (t.startsWith('...', this.at) || t.startsWith('**', this.at)) {
        open = true;
        this.at += 3 - (t.startsWith('**', this.at) ? 1 : 0);
        this.value();
      } else {
        const keyStart = this.at;
        const key = this.#key();
        this.skip();
        if (key === undefined) {
          // a computed key, or not an object literal after all (a Python set or dict comprehension)
          open = true;
          this.#unknown(keyStart);
          if (t[this.at] === ':') {
            this.at++;
            this.value();
          }
        } else if (t[this.at] === ':') {
          const keyEnd = this.at;
          this.at++;
          entries.push({ key, keyStart, keyEnd: trimEnd(t, keyStart, keyEnd), value: this.value() });
        } else if (this.language === 'typescript' && /^[A-Za-z_$]/.test(t[keyStart] as string)) {
          // shorthand `{ name }` or a method: present, value unknown
          entries.push({
            key,
            keyStart,
            keyEnd: trimEnd(t, keyStart, this.at),
            value: { kind: 'unknown', start: keyStart, end: this.at },
          });
          if (t[this.at] === '(') this.#unknown(this.at);
        } else return this.#skipRest(start);
      }
      this.skip();
      if (t[this.at] === ',') this.at++;
      else if (t[this.at] !== '}') return this.#skipRest(start);
    }
    this.at++;
    return this.#alone({ kind: 'object', entries, open, start, end: this.at });
  }

  // A key: a string literal (its text), or in TypeScript an identifier or number.
  #key(): string | undefined {
    const t = this.text;
    const start = this.at;
    const string = this.#string();
    if (string?.kind === 'string') {
      // a key with escapes or a triple-quoted key is not worth decoding: treated as computed (nothing reported)
      const raw = t.slice(start, string.end).replace(/^[rRuU]/, '');
      const inner = raw.slice(1, -1);
      if (!inner.includes('\\') && !raw.startsWith(raw.charAt(0).repeat(3))) return inner;
      this.at = start;
      return undefined;
    }
    this.at = start;
    if (this.language !== 'typescript') return undefined;
    const word = /^(?:[A-Za-z_$][\w$]*|\d+)/.exec(t.slice(start))?.[0];
    if (word === undefined) return undefined;
    this.at += word.length;
    return word;
  }

  // An object or array that cannot be read to its end: unknown, skipped to its closing bracket.
  #skipRest(start: number): Literal {
    this.at = start;
    const stack: string[] = [];
    const t = this.text;
    while (this.at < t.length) {
      if (this.#string() !== undefined) continue;
      const c = t[this.at] as string;
      if (CLOSERS[c] !== undefined) stack.push(CLOSERS[c]);
      else if (c === stack.at(-1)) {
        stack.pop();
        if (stack.length === 0) {
          this.at++;
          break;
        }
      }
      this.at++;
    }
    return { kind: 'unknown', start, end: this.at };
  }
}

function trimEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1] as string)) e--;
  return e;
}
