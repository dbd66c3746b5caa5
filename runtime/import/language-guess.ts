import type { Language } from '../protocol/run-result.js';

const PYTHON_SIGNS: readonly RegExp[] = [
  /^\s*(async\s+)?def\s+\w+\s*\(/m,
  /^\s*(import\s+\w|from\s+[\w.]+\s+import\s)/m,
  /^\s*(for|while|if|elif|with|try|except)\b[^\n]*:\s*(#.*)?$/m,
  /\bprint\s*\(/,
  /\basyncio\.\w+/,
  /\b(True|False|None)\b/,
  /\bf"[^"\n]*\{/,
  /^\s*#\s/m,
];

const TYPESCRIPT_SIGNS: readonly RegExp[] = [
  /\b(const|let|var)\s+[\w{[]/,
  /=>/,
  /\bconsole\.\w+\s*\(/,
  /;\s*$/m,
  /===|!==/,
  /\bPromise\.(all|allSettled|race)\b/,
  /`[^`]*\$\{/,
  /^\s*\/\/\s/m,
  /\b(null|undefined)\b/,
];

// The language of a program whose transcript does not say (deepseek-harness logs only the code): the one whose
// tell-tale syntax appears more often; TypeScript when undecided (the harness's default runtime).
export function guessLanguage(code: string): Language {
  const score = (signs: readonly RegExp[]): number => signs.filter((sign) => sign.test(code)).length;
  return score(PYTHON_SIGNS) > score(TYPESCRIPT_SIGNS) ? 'python' : 'typescript';
}

// How many tell-tale signs of each language a program shows (the model loop refuses a program only on clear evidence).
export function languageScores(code: string): Record<Language, number> {
  const score = (signs: readonly RegExp[]): number => signs.filter((sign) => sign.test(code)).length;
  return { python: score(PYTHON_SIGNS), typescript: score(TYPESCRIPT_SIGNS) };
}
