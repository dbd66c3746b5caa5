// `ptc run --approve` and `ptc run --replay … --fork n=<result.json>` as real processes: approvals answered by the
// flag, by a person on a terminal, or denied for want of one (exit 4); a fork replays calls before n, answers n with
// the edit and can be saved; bad input is one line, exit 2, nothing written.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ptc, scratchDir } from './cli-harness.js';

const BINDINGS = `export default {
  tools: {
    errorClass: { name: 'ToolError', memberNameProperty: 'tool' },
    functions: {
      search: {
        output: { type: 'object', properties: { hits: { type: 'integer' } }, required: ['hits'] },
        mock: async ({ q }) => ({ hits: q.length }),
      },
      send: { approval: true, mock: async (args) => ({ sent: args }) },
    },
  },
};
`;

const SEND = `try { return await tools.send({ to: 'ops' }); } catch (e) { return e.name + ': ' + e.message; }`;
const SEARCH = `const out = [];
for (const q of ['a', 'bb', 'ccc']) {
  try { out.push((await tools.search({ q })).hits); } catch (e) { out.push(e.message); }
}
return out;`;

describe('ptc run: approvals and forks', { timeout: 180_000 }, () => {
  const scratch = scratchDir('ptc-debugging-');
  const bindings = scratch.write('tools.bindings.mjs', BINDINGS);
  const send = scratch.write('send.ts', SEND);
  const search = scratch.write('search.ts', SEARCH);
  const at = (name: string): string => path.join(scratch.dir, name);
  const value = (stdout: string): unknown => (JSON.parse(stdout) as { value?: unknown }).value;

  it('--approve allow runs the call, deny refuses it; without a terminal it is denied and the exit code says so', async () => {
    const allowed = await ptc('run', send, '--bindings', bindings, '--approve', 'allow', '--json');
    expect(allowed.code).toBe(0);
    expect(value(allowed.stdout)).toEqual({ sent: { to: 'ops' } });
    const refused = await ptc('run', send, '--bindings', bindings, '--approve', 'deny', '--json');
    expect(refused.code).toBe(0);
    expect(value(refused.stdout)).toMatch(/^ToolError: .*tools\.send was denied \(--approve deny\)/);
    const unasked = await ptc('run', send, '--bindings', bindings, '--json');
    expect(unasked.code).toBe(4);
    expect(value(unasked.stdout)).toMatch(/tools\.send was denied: it needs approval and nobody could be asked/);
    expect(unasked.stderr).toContain(
      'ptc run: tools.send needs approval and there is no terminal to ask: denied (pass --approve allow to allow it)',
    );
    expect(unasked.stderr).toContain('1 call(s) needing approval were denied (no terminal to ask): exit 4');
  });

  it('--approve ask without a terminal: one line, exit 2, nothing written', async () => {
    const run = await ptc('run', send, '--bindings', bindings, '--approve', 'ask', '--record', at('never.json'));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'ptc run: --approve ask needs a terminal to ask on (stdin is not one): use --approve allow or deny\n',
    );
    expect(fs.existsSync(at('never.json'))).toBe(false);
  });

  it('on a terminal a person is asked, and the recorded decision replays without asking', async () => {
    const cassette = at('asked.json');
    // `script` gives the CLI a pseudo-terminal; the person types "a" once asked
    const command = [process.execPath, CLI, 'run', send, '--bindings', bindings, '--record', cassette, '--json']
      .map((part) => `'${part}'`)
      .join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const before = stdout;
      stdout += chunk;
      if (!before.includes('[e]dit arguments?') && stdout.includes('[e]dit arguments?')) child.stdin.write('a\n');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stdout).toContain('call 1 tools.send({"to":"ops"}) needs approval — [a]llow, [d]eny, [e]dit arguments?');
    expect(stdout).toContain('"value":{"sent":{"to":"ops"}}');
    expect(code).toBe(0);
    const recorded = JSON.parse(fs.readFileSync(cassette, 'utf8')) as { calls: { pause?: unknown }[] };
    expect(recorded.calls[0]?.pause).toMatchObject({ reason: 'approval', decision: 'continue', by: 'user' });
    const replayed = await ptc('run', send, '--bindings', bindings, '--replay', cassette, '--json');
    expect(replayed.code).toBe(0);
    expect(value(replayed.stdout)).toEqual({ sent: { to: 'ops' } });
  });

  it('--fork n=<result.json>: calls before n from the cassette, n edited, the rest replayed; --record saves it', async () => {
    const original = at('original.json');
    expect((await ptc('run', search, '--bindings', bindings, '--record', original)).code).toBe(0);
    const edit = scratch.write('edit.json', '{ "hits": 20 }');
    const forked = await ptc(
      'run',
      search,
      '--bindings',
      bindings,
      '--replay',
      original,
      '--fork',
      `2=${edit}`,
      '--record',
      at('fork.json'),
      '--json',
    );
    expect(forked.code).toBe(0);
    expect(value(forked.stdout)).toEqual([1, 20, 3]);
    const saved = JSON.parse(fs.readFileSync(at('fork.json'), 'utf8')) as {
      calls: { value?: unknown; pause?: { by: string } }[];
    };
    expect(saved.calls.map((c) => [c.value, c.pause?.by])).toEqual([
      [{ hits: 1 }, 'recording'],
      [{ hits: 20 }, 'edit'],
      [{ hits: 3 }, undefined],
    ]);
    const thrown = await ptc('run', search, '--replay', original, '--fork', '2=throw:search is down', '--json');
    expect(value(thrown.stdout)).toEqual([1, 'search is down', 3]);
    // the report says which calls the fork answered and how
    const report = await ptc('run', search, '--replay', original, '--fork', '2=throw:search is down');
    expect(report.stdout).toContain('     fork: answer by recording\n');
    expect(report.stdout).toContain('     fork: throw by edit\n');
    // the calls after the fork by the handlers instead
    const handled = await ptc(
      'run',
      search,
      '--bindings',
      bindings,
      '--replay',
      original,
      '--fork',
      '3=throw:x',
      '--mode',
      'mock',
      '--json',
    );
    expect(value(handled.stdout)).toEqual([1, 2, 'x']);
  });

  it('bad input: out of range, an answer that breaks the output schema, a bad spec — one line, exit 2, nothing written', async () => {
    const original = at('bad-original.json');
    expect((await ptc('run', search, '--bindings', bindings, '--record', original)).code).toBe(0);
    const good = scratch.write('good.json', '{ "hits": 1 }');
    const wrong = scratch.write('wrong.json', '{ "hits": "many" }');
    const cases: [string[], string][] = [
      [['--fork', `4=${good}`], 'ptc run: --fork 4: out of range, the cassette has calls 1 to 3\n'],
      [['--fork', `0=${good}`], 'ptc run: --fork 0: out of range, the cassette has calls 1 to 3\n'],
      [
        ['--fork', `2=${wrong}`],
        'ptc run: the answer for call 2 (tools.search) does not match its output schema: $.hits: must be integer\n',
      ],
      [['--fork', 'two=x'], 'ptc run: --fork expects <n>=<result.json> or <n>=throw:<message>, got "two=x"\n'],
    ];
    for (const [flags, message] of cases) {
      const out = at('bad-fork.json');
      const trace = at('bad-trace.jsonl');
      const run = await ptc(
        'run',
        search,
        '--bindings',
        bindings,
        '--replay',
        original,
        ...flags,
        '--record',
        out,
        '--trace',
        trace,
      );
      expect(run.code, flags.join(' ')).toBe(2);
      expect(run.stderr).toBe(message);
      expect(run.stdout).toBe('');
      expect(fs.existsSync(out) || fs.existsSync(trace)).toBe(false);
    }
    const noReplay = await ptc('run', search, '--fork', `1=${good}`);
    expect(noReplay.code).toBe(2);
    expect(noReplay.stderr).toBe('ptc run: --fork needs --replay <cassette.json> (the run it forks)\n');
  });
});
