import { decodeLossless } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { Session } from '../session/session-types.js';
import type { Check } from './tasks.js';

export type CheckVerdict = { pass: true } | { pass: false; message: string };

// Judges a final answer. A predicate runs as a TypeScript program in the sandbox (no bindings), never in this process.
export async function checkAnswer(check: Check, answer: string, predicateSession: Session): Promise<CheckVerdict> {
  if ('exact' in check)
    return answer.trim() === check.exact.trim()
      ? { pass: true }
      : { pass: false, message: `expected exactly ${quote(check.exact)}` };
  if ('contains' in check)
    return answer.toLowerCase().includes(check.contains.toLowerCase())
      ? { pass: true }
      : { pass: false, message: `expected the answer to contain ${quote(check.contains)}` };
  if ('json' in check) {
    const value = jsonIn(answer);
    if (value === undefined) return { pass: false, message: 'expected a JSON answer' };
    const miss = subsetMiss(check.json, value, '$');
    return miss === undefined ? { pass: true } : { pass: false, message: `the JSON answer differs at ${miss}` };
  }
  const program = `const answer: string = ${JSON.stringify(answer)};\nconst check = (${check.predicate});\nreturn (await check(answer)) === true;\n`;
  const outcome = await predicateSession.run({
    language: 'typescript',
    program,
    plan: { mode: 'mock' },
    limits: { timeoutMs: 10_000 },
  });
  if (outcome.kind === 'setup-failed')
    return { pass: false, message: `the predicate could not run: ${outcome.message}` };
  const { result } = outcome;
  if (result.error !== undefined)
    return { pass: false, message: `the predicate failed (${result.error.kind}): ${result.error.message}` };
  return result.value === true ? { pass: true } : { pass: false, message: 'the predicate returned false' };
}

// The answer as JSON: the whole text, a ```json fenced block, or the first parsable {…} / […] in it.
export function jsonIn(answer: string): JsonValue | undefined {
  const attempts = [answer.trim()];
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(answer);
  if (fenced?.[1] !== undefined) attempts.push(fenced[1].trim());
  for (const open of ['{', '[']) {
    const start = answer.indexOf(open);
    const end = answer.lastIndexOf(open === '{' ? '}' : ']');
    if (start !== -1 && end > start) attempts.push(answer.slice(start, end + 1));
  }
  for (const text of attempts) {
    const decoded = decodeLossless(text);
    if (decoded.ok) return decoded.value as JsonValue;
  }
  return undefined;
}

// Where `actual` fails to contain `expected`: objects by key (extra keys allowed), arrays element by element.
export function subsetMiss(expected: JsonValue, actual: JsonValue, at: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return at;
    for (const [i, item] of expected.entries()) {
      const miss = subsetMiss(item, actual[i] as JsonValue, `${at}[${i}]`);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return at;
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return `${at}.${key}`;
      const miss = subsetMiss(value, actual[key] as JsonValue, `${at}.${key}`);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  return expected === actual ? undefined : at;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
