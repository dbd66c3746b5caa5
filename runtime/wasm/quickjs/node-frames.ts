// QuickJS's stack frames rewritten the way V8 (the native engine) writes them, so one program fails with the same
// message and location whatever engine ran it (expectations compare failures exactly):
// - QuickJS places a call's frame at its opening parenthesis, V8 at the callee (the last name of `a.b.c(`, or `new`);
// - QuickJS names the top level `<anonymous>`, V8 writes the bare location;
// - QuickJS has no async stack traces: a binding's failure keeps the call site the guest took before its first await
//   (marked by ASYNC_SITE), which V8 writes as `at async …` frames placed at the `await` each frame waits on.

import { lineColumn } from '../../json/json-scan.js';

// the first line of a binding call site's stack (guest-prelude.ts): the frames after it wait on that call
export const ASYNC_SITE = '    at ptc:async-site';

const FRAME = /^(\s+at )(?:(.*?) \()?program\.ts:(\d+):(\d+)\)?$/;
const NAME_CHAR = /[\w$]/;

export interface GuestSource {
  // the program text as QuickJS compiled it (types stripped to blanks, so positions are the cell's own)
  code: string;
  // lines of the compiled text above the program's first line (the wrapper's header)
  headerLines: number;
}

// the program wrote the stack (or made it deep): only the frames a failure shows are read, and a search for a frame's
// `await` goes back at most this far, so a hostile stack or statement costs the child a bounded amount of work
const MAX_FRAMES = 64;
const MAX_SCAN_CHARS = 16_384;

export function nodeStyleStack(stack: string, source: GuestSource): string {
  const all = stack.split('\n', MAX_FRAMES + 2);
  const siteAt = all.indexOf(ASYNC_SITE);
  const lines = siteAt < 0 ? all : all.filter((_, i) => i !== siteAt);
  const offsets = lineOffsets(source.code);
  // each frame's place in the code: QuickJS's position (a call's `(`) moved to where V8 puts it
  const places = lines.map((line, i) => {
    const frame = FRAME.exec(line);
    if (frame === null) return undefined;
    const [, lead, name, lineText, columnText] = frame as unknown as [
      string,
      string,
      string | undefined,
      string,
      string,
    ];
    const programLine = Math.max(1, Number(lineText) - source.headerLines);
    const start = offsets[programLine - 1];
    const awaiting = siteAt >= 0 && i >= siteAt;
    let place = { line: programLine, column: Number(columnText) };
    let constructs = false;
    if (start !== undefined) {
      const at = start + place.column - 1;
      const callee = calleeBefore(source.code, at, start);
      constructs = callee?.constructs === true;
      const moved = awaiting ? awaitBefore(source.code, at) : callee?.offset;
      // an `await` may sit lines above the call it waits on
      if (moved !== undefined) place = lineColumn(source.code, moved);
    }
    return { lead, name, place, awaiting, constructs };
  });
  return lines
    .map((line, i) => {
      const frame = places[i];
      if (frame === undefined) return line;
      const bare = frame.name === undefined || frame.name === '<anonymous>' || frame.name === '<eval>';
      // V8 names a constructor's frame `new X`: the frame below (its caller) called it with `new`
      const label = bare ? undefined : `${places[i + 1]?.constructs === true ? 'new ' : ''}${frame.name as string}`;
      const where = `program.ts:${frame.place.line}:${frame.place.column}`;
      return `${frame.lead}${frame.awaiting ? 'async ' : ''}${label === undefined ? where : `${label} (${where})`}`;
    })
    .join('\n');
}

function lineOffsets(code: string): number[] {
  const offsets = [0];
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) offsets.push(i + 1);
  return offsets;
}

// `(` of a call → the callee's last name (`c` of `a.b.c(`), or `new` before it, as V8 places the frame.
function calleeBefore(
  code: string,
  at: number,
  lineStart: number,
): { offset: number; constructs: boolean } | undefined {
  if (code[at] !== '(') return undefined;
  let i = skipBlanks(code, at - 1, lineStart);
  const end = i;
  while (i >= lineStart && NAME_CHAR.test(code[i] as string)) i--;
  if (i === end) return undefined;
  // `new X(` and `new a.b.X(`: V8 points at `new`
  let j = i;
  while (j >= lineStart && (NAME_CHAR.test(code[j] as string) || code[j] === '.')) j--;
  j = skipBlanks(code, j, lineStart);
  if (j - 2 >= lineStart && isWord(code, j - 2, 'new')) return { offset: j - 2, constructs: true };
  return { offset: i + 1, constructs: false };
}

// A position inside an awaited expression → the `await` that waits on it, searched backwards through enclosing
// brackets within the statement (`await Promise.all([tools.a(), tools.b()])` waits at its `await`); a `;`, a block's
// `{` or a line that ended a statement bounds the search.
function awaitBefore(code: string, at: number): number | undefined {
  let depth = 0;
  for (let i = at - 1; i >= Math.max(0, at - MAX_SCAN_CHARS); i--) {
    const c = code[i] as string;
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '(' || c === '[') depth = Math.max(0, depth - 1);
    else if (c === '{') {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0 && (c === ';' || (c === '\n' && ENDS_STATEMENT.test(code.slice(Math.max(0, i - 80), i)))))
      return undefined;
    else if (depth === 0 && c === 't' && isWord(code, i - 4, 'await')) return i - 4;
  }
  return undefined;
}

const ENDS_STATEMENT = /[;}]\s*$/;

function isWord(code: string, at: number, word: string): boolean {
  return (
    at >= 0 &&
    code.startsWith(word, at) &&
    !NAME_CHAR.test(code[at - 1] ?? ' ') &&
    !NAME_CHAR.test(code[at + word.length] ?? ' ')
  );
}

function skipBlanks(code: string, i: number, lineStart: number): number {
  while (i >= lineStart && /\s/.test(code[i] as string)) i--;
  return i;
}
