import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { forgeFrame } from './forge-frame.js';
import type { Language, RunResult } from '../../../runtime/protocol/run-result.js';
import { CLI, ptc, scratchDir } from '../cli/cli-harness.js';

// python/ptc_runner.py RESERVE_BYTES: address space held back on the soft limit, released when memory runs out
const RESERVE = 4 * 1024 * 1024;

const exec = promisify(execFile);

// Contract edges (issue 30) on the path `ptc run --bindings` takes: the program's calls go to a bindings host process
// on a connection of their own, while forged frames still reach the runtime on the control channel.
const scratch = scratchDir('ptc-contract-edges-');
const bindings = scratch.write(
  'tools.bindings.mjs',
  [
    'export default {',
    '  tools: {',
    "    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },",
    '    functions: {',
    '      echo: async (args) => args,',
    '      slow: async () => { await new Promise((r) => setTimeout(r, 1500)); return "slow done"; },',
    '    },',
    '  },',
    '};',
  ].join('\n'),
);

async function runCli(language: Language, program: string): Promise<RunResult> {
  const file = scratch.write(
    `program-${Math.random().toString(36).slice(2)}.${language === 'python' ? 'py' : 'ts'}`,
    program,
  );
  const outcome = await ptc('run', file, '--bindings', bindings, '--json', '--timeout-ms', '20000');
  return JSON.parse(outcome.stdout) as RunResult;
}

describe.concurrent.each(['typescript', 'python'] as Language[])(
  'contract edges through a bindings host (%s)',
  (language) => {
    test('a forged control-channel call repeating the id of a call the host serves is a protocol violation; the host served it once', async () => {
      const start =
        language === 'python'
          ? 'import asyncio\npending = asyncio.ensure_future(tools.slow({}))\nawait asyncio.sleep(0.3)'
          : 'const pending = tools.slow({});\nawait new Promise((r) => setTimeout(r, 300));';
      const program = `${start}\n${forgeFrame(language, '{"type":"call","id":1,"global":"tools","name":"echo","args":"forged"}')}\n${language === 'python' ? 'return await pending' : 'return await pending;'}`;
      const r = await runCli(language, program);
      expect(r.error?.kind).toBe('protocol');
      expect(r.error?.message).toBe('call id 1 repeated (the bindings host already took it)');
      expect(r.calls.map((c) => [c.id, c.name])).toEqual([[1, 'slow']]);
    }, 60_000);

    test('two forged control-channel calls with one id: the repeat is refused, nothing is served', async () => {
      const frame = '{"type":"call","id":1,"global":"tools","name":"echo","args":"forged"}';
      const wait =
        language === 'python'
          ? 'import asyncio\nawait asyncio.sleep(3)'
          : 'await new Promise((r) => setTimeout(r, 3000));';
      const once = language === 'python' ? forgeFrame(language, frame) : `{\n${forgeFrame(language, frame)}\n}`;
      const r = await runCli(language, `${once}\n${once}\n${wait}`);
      expect(r.error).toEqual({
        kind: 'protocol',
        message: 'call id 1 repeated (a call on the control channel already took it)',
      });
      expect(r.calls).toEqual([]);
    }, 60_000);

    test('a forged call with an unsafe integer argument on the bindings connection is a protocol violation', async () => {
      // the child's own connection to the bindings host is the descriptor its boot names; the forged frame goes there
      const program =
        language === 'python'
          ? [
              'import asyncio, os',
              "await tools.echo('warm')",
              'frame = b\'{"type":"call","id":2,"global":"tools","name":"echo","args":9007199254740993}\\n\'',
              // the run frame named the bindings connection; every descriptor above the control channel is tried
              'for fd in range(4, 12):',
              '    try:',
              '        os.write(fd, frame)',
              '    except OSError:',
              '        pass',
              'await asyncio.sleep(3)',
            ].join('\n')
          : [
              "await tools.echo('warm');",
              "const fs = await import('node:fs');",
              'const body = Buffer.from(\'{"type":"call","id":2,"global":"tools","name":"echo","args":9007199254740993}\');',
              'const h = Buffer.alloc(4); h.writeUInt32BE(body.length, 0);',
              // the boot frame named the bindings connection; every descriptor above the control pair is tried
              'for (let fd = 5; fd < 12; fd++) { try { fs.writeSync(fd, Buffer.concat([h, body])); } catch {} }',
              'await new Promise((r) => setTimeout(r, 3000));',
            ].join('\n');
      const r = await runCli(language, program);
      expect(r.error?.kind).toBe('protocol');
      expect(r.error?.message).toMatch(/9007199254740993 is an integer outside the safe range/);
      expect(r.calls.map((c) => c.id)).toEqual([1]);
    }, 60_000);
  },
);

// Limits the host inherited (ulimit, prlimit, a CI runner's settings) bind every run too: the tighter of inherited and
// configured applies, and the failure names which. `prlimit` starts the CLI with them, as a shell's ulimit would.
async function runLimited(
  limits: string[],
  language: Language,
  program: string,
  ...flags: string[]
): Promise<RunResult> {
  const file = scratch.write(
    `limited-${Math.random().toString(36).slice(2)}.${language === 'python' ? 'py' : 'ts'}`,
    program,
  );
  // Node itself needs 700-800 MB of address space (V8's code range and heap reservations), more on a loaded machine:
  // under a limit near that, the CLI can die in V8's own reservation before it runs anything. That is Node's floor, not
  // the run's limit: it is tried again (twice at most); any other empty answer fails naming what the CLI printed.
  for (let attempt = 1; ; attempt++) {
    const { stdout, stderr } = await exec(
      'prlimit',
      [...limits, process.execPath, CLI, 'run', file, '--json', '--timeout-ms', '60000', ...flags],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout: string; stderr: string }) => error);
    if (stdout.trim() !== '') return JSON.parse(stdout) as RunResult;
    if (attempt < 3 && /Fatal process OOM in Failed to reserve virtual memory/.test(stderr)) continue;
    throw new Error(`ptc printed no result under ${limits.join(' ')} (attempt ${attempt}): ${stderr.slice(-1000)}`);
  }
}

describe.concurrent('inherited limits', () => {
  // 4 s soft: the CLI itself uses well under a second of CPU; the program traps SIGXCPU and burns 5.5 s
  test.each(['typescript', 'python'] as Language[])(
    'an inherited CPU soft limit is rechecked at settlement: a program that trapped SIGXCPU still times out, naming the limit (%s)',
    async (language) => {
      const program =
        language === 'python'
          ? 'import signal, time\nsignal.signal(signal.SIGXCPU, lambda *a: None)\nstart = time.process_time()\nwhile time.process_time() - start < 5.5:\n    pass\nreturn "survived"'
          : "process.on('SIGXCPU', () => undefined);\nconst start = process.cpuUsage();\nwhile (true) { const u = process.cpuUsage(start); if (u.user + u.system > 5_500_000) break; }\nreturn 'survived';";
      const r = await runLimited(['--cpu=4:60'], language, program);
      expect(r.value).toBeUndefined();
      expect(r.error?.kind).toBe('timeout');
      expect(r.error?.message).toMatch(
        /^CPU time exhausted \(the CPU time limit this process inherited \(RLIMIT_CPU soft limit 4s/,
      );
    },
    120_000,
  );

  test('an inherited address-space limit tighter than memoryMb is the one a Python run gets', async () => {
    const r = await runLimited(
      [`--as=${2048 * 1024 * 1024}`],
      'python',
      'import resource\nreturn list(resource.getrlimit(resource.RLIMIT_AS))',
      '--memory-mb',
      '4096',
    );
    expect(r.error).toBeUndefined();
    // the hard limit bounds the run; the soft one sits RESERVE below it, the runner's out-of-memory reserve
    expect(r.value).toEqual([2048 * 1024 * 1024 - RESERVE, 2048 * 1024 * 1024]);
  }, 120_000);

  test('under 1 GiB of inherited address space (below what the host used to reserve for its frame buffers) a Python run gets that limit', async () => {
    const r = await runLimited(
      [`--as=${1024 * 1024 * 1024}`],
      'python',
      'import resource\nreturn list(resource.getrlimit(resource.RLIMIT_AS))',
      '--memory-mb',
      '2048',
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([1024 * 1024 * 1024 - RESERVE, 1024 * 1024 * 1024]);
  }, 120_000);

  test('a TypeScript run under an address space too small for WebAssembly fails as data, naming the inherited limit', async () => {
    const r = await runLimited([`--as=${2048 * 1024 * 1024}`], 'typescript', 'return 1;');
    expect(r.error?.kind).toBe('worker-exit');
    expect(r.error?.message).toMatch(
      /could not load the TypeScript stripper .*inherited an address-space limit \(RLIMIT_AS 2048 MiB\)/,
    );
  }, 120_000);
});
