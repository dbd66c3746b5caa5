import type { JsonValue } from '../protocol/json-value.js';
import { IMPORT_LIMITS } from './limits.js';

export const REDACTED = '[redacted]';

// Field and header names whose string values are credentials wherever they appear.
const SECRET_KEY =
  /^(authorization|proxy-authorization|x-api-key|api[-_]?key|x-goog-api-key|openai[-_]api[-_]key|anthropic[-_]api[-_]key|deepseek[-_]api[-_]key|cookie|set-cookie|password|passwd|client[-_]secret|secret[-_]key|access[-_]token|refresh[-_]token|id[-_]token|session[-_]token|private[-_]key)$/i;

// Credentials recognisable by their shape alone (vendor key prefixes, bearer tokens, JWTs, PEM private keys).
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{10,}/g,
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  /\b(?:sk|rk)_live_[A-Za-z0-9]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];
const BEARER = /\b(Bearer|Basic)\s+([A-Za-z0-9._~+/=-]{8,})/g;

// a literal shorter than this is too likely to be ordinary text to scrub everywhere
const MIN_LITERAL = 8;

// Collects the credentials a transcript carries (header values, key-named fields, recognisable tokens) and removes
// every occurrence of them from what is written, so a key echoed in a tool answer or program text is caught too.
export class SecretScrubber {
  readonly #literals = new Set<string>();
  #literalPattern: RegExp | undefined;
  #redactions = 0;

  get redactions(): number {
    return this.#redactions;
  }

  // A value known to be a credential (e.g. an Authorization header).
  collect(value: string): void {
    const bare = value.replace(/^(Bearer|Basic)\s+/i, '').trim();
    for (const literal of [value.trim(), bare]) {
      if (literal.length < MIN_LITERAL || this.#literals.size >= IMPORT_LIMITS.maxCollectedSecrets) continue;
      this.#literals.add(literal);
      this.#literalPattern = undefined;
    }
  }

  isSecretKey(key: string): boolean {
    return SECRET_KEY.test(key);
  }

  // Walks a parsed input without recursion and collects values under secret-named keys.
  harvest(root: unknown): void {
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const value = stack.pop();
      if (value === null || typeof value !== 'object') continue;
      if (Array.isArray(value)) {
        for (const item of value) stack.push(item);
        continue;
      }
      for (const key of Object.keys(value)) {
        const child = (value as Record<string, unknown>)[key];
        if (typeof child === 'string' && this.isSecretKey(key)) this.collect(child);
        else if (child !== null && typeof child === 'object') stack.push(child);
      }
    }
  }

  // The text with every collected literal and every recognisable credential replaced by [redacted].
  scrubString(text: string): string {
    let out = text;
    const literals = this.#pattern();
    if (literals !== undefined) out = out.replace(literals, () => this.#count(REDACTED));
    for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, () => this.#count(REDACTED));
    out = out.replace(BEARER, (_, scheme: string) => this.#count(`${scheme} ${REDACTED}`));
    return out;
  }

  // A scrubbed deep copy, built without recursion and without the `__proto__` setter (keys are defined, not assigned).
  scrubValue(root: JsonValue): JsonValue {
    type Frame = { from: JsonValue; assign: (v: JsonValue) => void };
    let result: JsonValue = null;
    const stack: Frame[] = [{ from: root, assign: (v) => (result = v) }];
    while (stack.length > 0) {
      const { from, assign } = stack.pop() as Frame;
      if (typeof from === 'string') assign(this.scrubString(from));
      else if (from === null || typeof from !== 'object') assign(from);
      else if (Array.isArray(from)) {
        const out: JsonValue[] = new Array<JsonValue>(from.length).fill(null);
        assign(out);
        from.forEach((item, i) => stack.push({ from: item, assign: (v) => (out[i] = v) }));
      } else {
        const out: Record<string, JsonValue> = {};
        assign(out);
        for (const key of Object.keys(from)) {
          const child = from[key] as JsonValue;
          const name = this.scrubString(key);
          const define = (v: JsonValue): void => {
            Object.defineProperty(out, name, { value: v, enumerable: true, writable: true, configurable: true });
          };
          // defined now so keys keep their order; redefining later keeps the position
          define(null);
          if (typeof child === 'string' && this.isSecretKey(key)) define(this.#count(REDACTED));
          else stack.push({ from: child, assign: define });
        }
      }
    }
    return result;
  }

  #count(replacement: string): string {
    this.#redactions++;
    return replacement;
  }

  #pattern(): RegExp | undefined {
    if (this.#literals.size === 0) return undefined;
    // longest first, so a key is not half-replaced by a shorter literal that is its prefix
    const escaped = [...this.#literals]
      .sort((a, b) => b.length - a.length)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.#literalPattern ??= new RegExp(escaped.join('|'), 'g');
    return this.#literalPattern;
  }
}
