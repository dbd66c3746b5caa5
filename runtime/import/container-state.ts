import type { ExtractedProgram } from './transcript-model.js';

// Anthropic's code execution keeps a container's Python state between the programs that run in it: a later program
// may use variables an earlier one set. Such a program is replayed after the earlier programs of its container (their
// output hidden, their recorded calls served first); when that state cannot be rebuilt (an earlier program has no
// text, is not Python, or failed) it is marked not reproducible and never run against missing variables.
export function linkContainerState(programs: readonly ExtractedProgram[]): void {
  const byContainer = new Map<string, ExtractedProgram[]>();
  // each program's own calls, before earlier programs' calls are put ahead of them
  const own = new Map(programs.map((p) => [p, [...p.calls]]));
  for (const program of programs) {
    const container = program.ids?.container;
    if (container === undefined || program.language !== 'python' || program.code === undefined) continue;
    const earlier = byContainer.get(container) ?? [];
    const needed = usedNames(program.code, earlier);
    if (needed.length > 0) {
      // a program that failed or cannot run is left out: its state is rebuilt only if nothing needed came from it
      const clean = earlier.filter(
        (p) =>
          p.code !== undefined &&
          p.language === 'python' &&
          p.outcome?.error === undefined &&
          p.unreproducible.length === 0,
      );
      const rebuilt = new Set(clean.flatMap((p) => [...boundNames(p.code as string)]));
      const lost = needed.filter((n) => !rebuilt.has(n));
      if (lost.length > 0) {
        program.unreproducible.push(
          `it uses ${list(lost)} left in container ${container} by an earlier program that failed or cannot run here, so that state cannot be rebuilt`,
        );
        program.language = undefined;
      } else {
        program.prelude = clean.map((p) => p.code as string);
        program.calls.unshift(
          ...clean.flatMap((p) =>
            (own.get(p) ?? []).map((c) => ({
              ...c,
              notes: [...c.notes, `made by earlier program ${p.id ?? '?'} of the container`],
            })),
          ),
        );
        program.notes.push(
          `it uses ${list(needed)} from earlier programs of container ${container}: they run first in the cell, their output hidden`,
        );
      }
    }
    earlier.push(program);
    byContainer.set(container, earlier);
  }
}

const ASSIGNED = [
  /^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::[^=\n]*)?=(?!=)/gm,
  /^(?:async\s+)?def\s+([A-Za-z_]\w*)/gm,
  /^class\s+([A-Za-z_]\w*)/gm,
  /^for\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+in\b/gm,
  /^with\s+.*\bas\s+([A-Za-z_]\w*)/gm,
];
const IMPORTED = /^(?:from\s+\S+\s+)?import\s+(.+)$/gm;

// Names a program binds at top level (assignments, defs, classes, loop targets, imports): a conservative reading.
function boundNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const pattern of ASSIGNED)
    for (const match of code.matchAll(pattern)) for (const n of (match[1] ?? '').split(',')) names.add(n.trim());
  for (const match of code.matchAll(IMPORTED))
    for (const part of (match[1] ?? '').replace(/[()]/g, '').split(',')) {
      const alias = /\bas\s+([A-Za-z_]\w*)/.exec(part)?.[1] ?? /^\s*([A-Za-z_]\w*)/.exec(part)?.[1];
      if (alias !== undefined) names.add(alias);
    }
  names.delete('');
  return names;
}

// Names earlier programs bound that this one uses without binding them itself.
function usedNames(code: string, earlier: readonly ExtractedProgram[]): string[] {
  if (earlier.length === 0) return [];
  const own = boundNames(code);
  const before = new Set(earlier.flatMap((p) => (p.code === undefined ? [] : [...boundNames(p.code)])));
  const words = new Set(code.replace(/#.*$/gm, '').match(/[A-Za-z_]\w*/g) ?? []);
  return [...before].filter((n) => words.has(n) && !own.has(n)).sort();
}

function list(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => `\`${n}\``);
  return names.length > 5 ? `${shown.join(', ')} and ${names.length - 5} more` : shown.join(', ');
}
