import fs from 'node:fs';
import path from 'node:path';
import { FAILURE_KINDS, type FailureKind, type Language } from '../../../runtime/protocol/run-result.js';

// Observable side effects a hostile program may try to cause; the harness measures each one for real, on the host
// (fixtures.ts), except kernel-granted: the program's own report that a forbidden syscall succeeded.
export const EFFECTS = [
  // an entry appeared in the program's host working directory (its private outside dir)
  'file-created',
  // the planted {{TARGET_FILE}} (a `.pth` a Python would run) changed content, mtime or mode
  'file-changed',
  // the harness-made device node {{DEVICE_NODE}} changed mode, owner or ctime
  'device-changed',
  // a core file appeared in the host working directory
  'core-dumped',
  // a node_trace.*.log appeared in the host working directory
  'trace-written',
  // files named with {{TOKEN}} were on the host disk under the suite's TMPDIR or in the host's /dev/shm, during the run
  // (probe.hostLook) or after it
  'data-on-host-disk',
  // the {{VICTIM_PID}} host process was reniced, traced, stopped, killed or had its OOM score changed
  'victim-touched',
  // SysV objects with keys from {{OWN_IPC_KEY}} exist in the host's IPC namespace after the run
  'ipc-left',
  // {{TOKEN}} was written to, or injected into the input of, the host pty {{PTY_PATH}}
  'tty-injected',
  // the result carries the upper-cased {{TOKEN}}, which a program emits only when the kernel granted the attempt
  'kernel-granted',
  'tcp-received',
  'udp-received',
  'unix-received',
  'secret-leaked',
  'env-leaked',
] as const;
export type Effect = (typeof EFFECTS)[number];

// Host conditions a program needs to mean anything here: a control's effect must be possible at all, a fixture must
// be buildable (checked by requirements.ts; an unmet one skips the program and says why).
export const REQUIREMENTS = ['root', 'core-in-cwd', 'af-vsock', 'io-uring', 'host-python', 'x86-64'] as const;
export type Requirement = (typeof REQUIREMENTS)[number];

export type Outcome = FailureKind | 'success';
const OUTCOMES: readonly Outcome[] = ['success', ...FAILURE_KINDS];

export interface RequestOptions {
  timeoutMs?: number;
  memoryMb?: number;
  maxOutputBytes?: number;
  maxPendingCalls?: number;
  sandbox?: 'required' | 'best-effort' | 'off';
}

export interface CorpusEntry {
  name: string;
  file: string;
  language: Language;
  source: string;
  about: string;
  expect: Outcome[];
  // exact completion value, when the header gives one
  value?: { json: unknown };
  message?: RegExp;
  logs?: RegExp;
  calls?: number;
  mustNot: Effect[];
  must: Effect[];
  options: RequestOptions;
  // a runtime gap written down in the findings file: the case is expected to fail until it is fixed
  knownBug?: string;
  // the program carries its own control (what it touches that it may, with the check its attacks use): its `value:`
  // holds the control's verdict next to the attacks', so on every engine and judge a different value is a breach
  control?: string;
  requires: Requirement[];
}

// Short limits keep the corpus to a few minutes; a header may widen them per program. The 3 s deadline is for
// programs whose expected ending IS the deadline; every other program ends on its own, so its deadline is only a
// safety net, wide enough that a loaded 2-core machine cannot turn a slow but correct run into a timeout.
// CPython's address-space limit also counts its own mappings, so it gets more room than the V8 heap cap.
export function defaultOptions(
  entry: Pick<CorpusEntry, 'language' | 'expect'>,
): Required<Pick<RequestOptions, 'timeoutMs' | 'memoryMb' | 'maxOutputBytes'>> {
  return {
    timeoutMs: entry.expect.includes('timeout') ? 3_000 : 20_000,
    memoryMb: entry.language === 'python' ? 256 : 128,
    maxOutputBytes: 1_000_000,
  };
}

function parseEffects(text: string, file: string): Effect[] {
  const out: Effect[] = [];
  for (const raw of text.split(',')) {
    const effect = raw.trim().split(/\s+/)[0] ?? '';
    if (!(EFFECTS as readonly string[]).includes(effect)) throw new Error(`${file}: unknown effect "${effect}"`);
    out.push(effect as Effect);
  }
  return out;
}

// Reads the header comment block (`// key: value` or `# key: value`) at the top of a corpus program.
export function parseCorpusFile(file: string): CorpusEntry {
  const source = fs.readFileSync(file, 'utf8');
  const language: Language = file.endsWith('.py') ? 'python' : 'typescript';
  const prefix = language === 'python' ? '#' : '//';
  const entry: CorpusEntry = {
    name: path.basename(file),
    file,
    language,
    source,
    about: '',
    expect: [],
    mustNot: [],
    must: [],
    options: {},
    requires: [],
  };
  for (const line of source.split('\n')) {
    if (!line.startsWith(prefix)) break;
    const match = /^(?:\/\/|#)\s*([a-z-]+):\s?(.*)$/.exec(line);
    if (match === null) continue;
    const [, key, value = ''] = match;
    switch (key) {
      case 'about':
        entry.about = value.trim();
        break;
      case 'expect':
        for (const kind of value.split('|').map((k) => k.trim())) {
          if (!(OUTCOMES as readonly string[]).includes(kind)) throw new Error(`${file}: unknown outcome "${kind}"`);
          entry.expect.push(kind as Outcome);
        }
        break;
      case 'value':
        entry.value = { json: JSON.parse(value) as unknown };
        break;
      case 'message':
        entry.message = new RegExp(value.trim(), 'is');
        break;
      case 'logs':
        entry.logs = new RegExp(value.trim(), 's');
        break;
      case 'calls':
        entry.calls = Number(value);
        break;
      case 'must-not':
        entry.mustNot.push(...parseEffects(value, file));
        break;
      case 'must':
        entry.must.push(...parseEffects(value, file));
        break;
      case 'requires':
        for (const need of value.split(',').map((r) => r.trim())) {
          if (!(REQUIREMENTS as readonly string[]).includes(need))
            throw new Error(`${file}: unknown requirement "${need}"`);
          entry.requires.push(need as Requirement);
        }
        break;
      case 'known-bug':
        entry.knownBug = value.trim();
        break;
      case 'control':
        entry.control = value.trim();
        break;
      case 'options':
        entry.options = { ...entry.options, ...(JSON.parse(value) as RequestOptions) };
        break;
      default:
        throw new Error(`${file}: unknown header key "${key}"`);
    }
  }
  if (entry.expect.length === 0) throw new Error(`${file}: missing "expect:" header`);
  if (entry.about === '') throw new Error(`${file}: missing "about:" header`);
  if (entry.control !== undefined && entry.value === undefined)
    throw new Error(`${file}: "control:" needs a "value:" header holding the control's verdict`);
  return entry;
}

export function loadCorpus(dir: string): CorpusEntry[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts') || f.endsWith('.py'))
    .sort()
    .map((f) => parseCorpusFile(path.join(dir, f)));
}
