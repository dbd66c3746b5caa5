import { describe, expect, test } from 'vitest';
import type { Language, RunResult } from '../../../runtime/protocol/run-result.js';
import { ptc, scratchDir } from '../cli/cli-harness.js';

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

function forge(language: Language, frame: string): string {
  return language === 'python'
    ? `import os\nos.write(3, ${JSON.stringify(frame + '\n')}.encode())`
    : `const fs = await import('node:fs');\nconst body = Buffer.from(${JSON.stringify(frame)});\nconst h = Buffer.alloc(4); h.writeUInt32BE(body.length, 0);\nfs.writeSync(3, Buffer.concat([h, body]));`;
}

async function runCli(language: Language, program: string): Promise<RunResult> {
  const file = scratch.write(`program-${Math.random().toString(36).slice(2)}.${language === 'python' ? 'py' : 'ts'}`, program);
  const outcome = await ptc('run', file, '--bindings', bindings, '--json', '--timeout-ms', '20000');
  return JSON.parse(outcome.stdout) as RunResult;
}

describe.concurrent.each(['typescript', 'python'] as Language[])('contract edges through a bindings host (%s)', (language) => {
  test('a forged control-channel call repeating the id of a call the host serves is a protocol violation; the host served it once', async () => {
    const start =
      language === 'python'
        ? 'import asyncio\npending = asyncio.ensure_future(tools.slow({}))\nawait asyncio.sleep(0.3)'
        : 'const pending = tools.slow({});\nawait new Promise((r) => setTimeout(r, 300));';
    const program = `${start}\n${forge(language, '{"type":"call","id":1,"global":"tools","name":"echo","args":"forged"}')}\n${language === 'python' ? 'return await pending' : 'return await pending;'}`;
    const r = await runCli(language, program);
    expect(r.error?.kind).toBe('protocol');
    expect(r.error?.message).toBe('call id 1 repeated (the bindings host already took it)');
    expect(r.calls.map((c) => [c.id, c.name])).toEqual([[1, 'slow']]);
  }, 60_000);

  test('two forged control-channel calls with one id: the repeat is refused, nothing is served', async () => {
    const frame = '{"type":"call","id":1,"global":"tools","name":"echo","args":"forged"}';
    const wait = language === 'python' ? 'import asyncio\nawait asyncio.sleep(3)' : 'await new Promise((r) => setTimeout(r, 3000));';
    const once = language === 'python' ? forge(language, frame) : `{\n${forge(language, frame)}\n}`;
    const r = await runCli(language, `${once}\n${once}\n${wait}`);
    expect(r.error).toEqual({ kind: 'protocol', message: 'call id 1 repeated (a call on the control channel already took it)' });
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
});
