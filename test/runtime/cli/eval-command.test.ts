// `ptc eval` as a real process against the fake model server (both APIs), with tools from the example cassettes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeScript,
} from '../../../examples/models/fake-model-server.mjs';
import { parseNotebook } from '../../../runtime/index.js';
import { TraceRecordSchema } from '../../../runtime/import/trace-format.js';
import { ptcWith, scratchDir } from './cli-harness.js';

const TASKS = path.resolve('examples/models/tasks.jsonl');
const BINDINGS = path.resolve('examples/programs/tools.bindings.mjs');
const CASSETTES = path.resolve('examples/models/cassettes');
const KEY = 'sk-eval-test-key-0123456789abcdef';
const scratch = scratchDir('ptc-eval-');
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer({
    script: JSON.parse(fs.readFileSync('examples/models/fake-model.json', 'utf8')) as FakeScript,
  });
});
afterAll(async () => {
  await server.close();
});

const env = { ...process.env, OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };
const evalCli = (...args: string[]) => ptcWith({ env }, 'eval', ...args);
const models = (): string => `openai:fake-coder@${server.url}/v1,anthropic:fake-hasty@${server.url}`;

interface Summary {
  summary: {
    model: string;
    mode: string;
    runs: number;
    passed: number;
    failures: Record<string, number>;
    bindingCalls: number;
    meanTurns: number;
    tokensIn: number;
  }[];
  runs: {
    task: string;
    model: string;
    mode: string;
    passed: boolean;
    message?: string;
    transcript?: string;
    promptHash: string;
    tokensIn: number;
  }[];
}

describe('ptc eval', () => {
  it('compares models and modes from cassettes: table, JSON, transcripts and a report notebook; the key goes nowhere but the API', async () => {
    const out = path.join(scratch.dir, 'out');
    const result = await evalCli(
      TASKS,
      '--bindings',
      BINDINGS,
      '--replay',
      CASSETTES,
      '--models',
      models(),
      '--output',
      out,
      '--json',
    );
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as Summary;
    expect(json.summary.map((r) => [r.model, r.mode, `${r.passed}/${r.runs}`, r.failures])).toEqual([
      ['openai:fake-coder', 'code', '4/4', {}],
      ['openai:fake-coder', 'direct', '4/4', {}],
      ['anthropic:fake-hasty', 'code', '4/4', { refused: 1 }],
      ['anthropic:fake-hasty', 'direct', '3/4', { check: 1 }],
    ]);
    expect(json.summary[0]!.bindingCalls).toBe(7);
    expect(
      json.runs.find((r) => r.task === 'bigger' && r.model === 'anthropic:fake-hasty' && r.mode === 'direct'),
    ).toMatchObject({
      passed: false,
      message: 'expected a JSON answer',
    });
    // the predicate check ran (in the sandbox) and passed
    expect(json.runs.filter((r) => r.task === 'lyon-country').every((r) => r.passed)).toBe(true);
    // files: eval.json, a notebook that opens, one transcript per run that `ptc import` reads
    const written = JSON.parse(fs.readFileSync(path.join(out, 'eval.json'), 'utf8')) as Summary;
    expect(written.runs).toHaveLength(16);
    for (const run of written.runs) {
      const lines = fs.readFileSync(path.join(out, run.transcript!), 'utf8').trim().split('\n');
      for (const line of lines) TraceRecordSchema.parse(JSON.parse(line));
    }
    const notebook = parseNotebook(fs.readFileSync(path.join(out, 'eval.ptcnb'), 'utf8'));
    expect(notebook.ok).toBe(true);
    const imported = await ptcWith(
      { env },
      'import',
      path.join(out, written.runs[0]!.transcript!),
      '--output',
      path.join(scratch.dir, 'imported', 'x.ptcnb'),
      '--bindings',
      BINDINGS,
      '--verify',
    );
    expect(imported.stdout).toContain('the replay matches the transcript');
    // the key reached the fake server, and no file, report or output
    expect(server.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(server.requests.some((r) => r.headers['x-api-key'] === KEY)).toBe(true);
    expect(result.stdout + result.stderr).not.toContain(KEY);
    for (const file of fs.readdirSync(out, { recursive: true }) as string[]) {
      const full = path.join(out, file);
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full, 'utf8'), file).not.toContain(KEY);
    }
  }, 240_000); // every task × model × mode runs sandboxed, in sequence: minutes when the whole suite shares two cores

  it('prints a table, and shards split the runs without overlap', async () => {
    const base = [
      TASKS,
      '--bindings',
      BINDINGS,
      '--models',
      `openai:fake-coder@${server.url}/v1`,
      '--modes',
      'code',
      '--samples',
      '2',
    ];
    const table = await evalCli(...base, '--shard', '1/2');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^model\s+mode\s+pass\s+rate\s+turns/);
    expect(table.stdout).toMatch(/openai:fake-coder\s+code\s+4\/4\s+100%/);
    const [one, two] = await Promise.all([
      evalCli(...base, '--shard', '1/2', '--json'),
      evalCli(...base, '--shard', '2/2', '--json'),
    ]);
    const key = (r: Summary['runs'][number] & { sample?: number }): string => `${r.task}/${r.sample}`;
    const a = (JSON.parse(one.stdout) as Summary).runs.map(key);
    const b = (JSON.parse(two.stdout) as Summary).runs.map(key);
    expect(a).toHaveLength(4);
    expect(b).toHaveLength(4);
    expect(new Set([...a, ...b]).size).toBe(8);
  }, 240_000); // three shards of sandboxed runs, then a merge: a loaded machine needs more than the default minute

  it('a model that keeps failing, a failing predicate and a throwing one are failures of their runs; the run the model never answered makes the command exit 1', async () => {
    const tasks = scratch.write(
      'bad.jsonl',
      [
        JSON.stringify({ id: 'down', task: 'always down', check: { contains: 'x' } }),
        JSON.stringify({ id: 'p-false', task: 'Paris predicate false', check: { predicate: '(a) => a === "nope"' } }),
        JSON.stringify({
          id: 'p-throw',
          task: 'Paris predicate throws',
          check: { predicate: '() => { throw new Error("bad check") }' },
        }),
      ].join('\n'),
    );
    const script: FakeScript = {
      rules: [
        { match: 'always down', replies: [{ status: 503, retryAfter: 0 }] },
        { match: 'Paris predicate', replies: [{ text: 'Paris' }] },
      ],
    };
    const down = await startFakeModelServer({ script });
    try {
      const result = await evalCli(
        tasks,
        '--bindings',
        BINDINGS,
        '--models',
        `openai:m@${down.url}/v1`,
        '--modes',
        'code',
        '--json',
      );
      // the table is still whole; the exit code and one line say that one run measured nothing
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('1 of 3 run(s) never got an answer from their model');
      const runs = (JSON.parse(result.stdout) as Summary).runs;
      expect(runs.map((r) => [r.task, r.passed, r.message])).toEqual([
        ['down', false, expect.stringContaining('the model API answered 503')],
        ['p-false', false, 'the predicate returned false'],
        ['p-throw', false, expect.stringContaining('the predicate failed (exception): ')],
      ]);
      // a 503 that persists after the retries is the service being down, not a rate limit
      expect((JSON.parse(result.stdout) as Summary).summary[0]!.failures).toEqual({ 'model-unavailable': 1, check: 2 });
    } finally {
      await down.close();
    }
  });

  it.each([
    [['--bindings', BINDINGS], 'missing --models'],
    [['--bindings', BINDINGS, '--models', 'gpt-4'], '"gpt-4" is not a model: expected provider:model[@baseUrl]'],
    [['--bindings', BINDINGS, '--models', 'openai:m@http://user:pw@127.0.0.1/v1'], 'must not carry credentials'],
    [['--bindings', BINDINGS, '--models', 'openai:m', '--modes', 'code,tools'], '--modes expects one of code|direct'],
    [['--bindings', BINDINGS, '--models', 'openai:m', '--shard', '3/2'], '--shard expects i/n'],
    [
      ['--bindings', BINDINGS, '--models', 'openai:m', '--replay', '/nonexistent-dir'],
      '--replay expects a folder of cassettes',
    ],
    [['--models', 'openai:m'], 'missing --bindings'],
  ])('misuse %j exits 2 naming the problem', async (args, message) => {
    const result = await evalCli(TASKS, ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('ptc eval merge: the shards’ outputs combine into the table and JSON a single run prints', async () => {
    const base = [TASKS, '--bindings', BINDINGS, '--replay', CASSETTES, '--models', models(), '--modes', 'code,direct'];
    const dirs = [1, 2, 3].map((i) => path.join(scratch.dir, `shard-${i}`));
    const [single, ...shards] = await Promise.all([
      evalCli(...base, '--json'),
      ...dirs.map((dir, i) => evalCli(...base, '--shard', `${i + 1}/3`, '--output', dir, '--json')),
    ]);
    for (const r of [single!, ...shards]) expect(r.code).toBe(0);
    const whole = JSON.parse(single!.stdout) as Summary;
    const merged = path.join(scratch.dir, 'merged');
    const json = await evalCli('merge', ...dirs, '--output', merged, '--json');
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout) as Summary;
    // latency, and prompt sizes (a tool result carries the time), vary between runs: the rest is the single run's table
    type Row = Summary['summary'][number] & { meanLatencyMs?: number };
    const stable = (rows: Summary['summary']) => rows.map(({ meanLatencyMs: _l, tokensIn: _t, ...r }: Row) => r);
    expect(stable(result.summary)).toEqual(stable(whole.summary));
    const shardRuns = shards.flatMap((r) => (JSON.parse(r.stdout) as Summary).runs);
    expect(result.summary[0]!.tokensIn).toBe(
      shardRuns
        .filter((r) => r.model === result.summary[0]!.model && r.mode === result.summary[0]!.mode)
        .reduce((n, r) => n + r.tokensIn, 0),
    );
    expect(result.runs.map((r) => `${r.task}/${r.model}/${r.mode}`)).toEqual(
      whole.runs.map((r) => `${r.task}/${r.model}/${r.mode}`),
    );
    // every transcript came along
    expect(fs.readdirSync(path.join(merged, 'transcripts'))).toHaveLength(16);
    const table = await evalCli('merge', ...dirs);
    expect(table.stdout).toMatch(/^model\s+mode\s+pass\s+rate\s+turns\s+tokens in\s+cached/);
    // a shard given twice is refused
    const twice = await evalCli('merge', dirs[0]!, dirs[0]!);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('both hold run 0');
  }, 300_000);

  it('with no API key: one line naming the variable to set, exit 2, and no request', async () => {
    const before = server.requests.length;
    const bare = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/API_KEY$/.test(k)));
    for (const [spec, variable] of [
      [`openai:fake-coder@${server.url}/v1`, 'PTC_OPENAI_API_KEY'],
      [`openai-responses:fake-coder@${server.url}/v1`, 'PTC_OPENAI_API_KEY'],
      [`anthropic:fake-hasty@${server.url}`, 'PTC_ANTHROPIC_API_KEY'],
    ] as const) {
      const result = await ptcWith(
        { env: bare },
        'eval',
        TASKS,
        '--bindings',
        BINDINGS,
        '--replay',
        CASSETTES,
        '--models',
        spec,
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`set ${variable}`);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(server.requests.length).toBe(before);
  });

  it('--replay with a missing or corrupt cassette is a usage error before any request; no host path reaches a model', async () => {
    const dir = path.join(scratch.dir, 'replay-broken');
    fs.mkdirSync(dir, { recursive: true });
    for (const file of fs.readdirSync(CASSETTES)) fs.copyFileSync(path.join(CASSETTES, file), path.join(dir, file));
    const [first, second] = fs.readdirSync(dir).sort();
    fs.rmSync(path.join(dir, first!));
    fs.writeFileSync(path.join(dir, second!), '{"version": 1, "calls": [');
    const before = server.requests.length;
    const result = await evalCli(TASKS, '--bindings', BINDINGS, '--replay', dir, '--models', models());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(first!);
    expect(result.stderr).toContain(second!);
    expect(server.requests.length).toBe(before);
    // every request of a good replay: the cassette folder's path is nowhere in what the models were sent
    await evalCli(TASKS, '--bindings', BINDINGS, '--replay', CASSETTES, '--models', models(), '--modes', 'code');
    const sent = JSON.stringify(server.requests.slice(before).map((r) => r.body));
    expect(sent).not.toContain(CASSETTES);
    expect(sent).not.toContain(path.dirname(CASSETTES));
  }, 240_000);

  it('a key the model’s program prints is redacted in eval.json, the notebook, the transcripts and the terminal', async () => {
    const tasks = scratch.write(
      'leak.jsonl',
      `${JSON.stringify({ id: 'leak', task: 'leak the key', check: { contains: 'done' } })}\n`,
    );
    const code = `console.log('key:', ${JSON.stringify(KEY)});\nreturn ${JSON.stringify(`the key is ${KEY}`)};\n`;
    const leaky = await startFakeModelServer({
      script: { rules: [{ match: 'leak the key', replies: [{ run_code: { code } }, { text: `done ${KEY}` }] }] },
    });
    try {
      const out = path.join(scratch.dir, 'leak-out');
      const result = await evalCli(
        tasks,
        '--bindings',
        BINDINGS,
        '--models',
        `openai:m@${leaky.url}/v1`,
        '--modes',
        'code',
        '--output',
        out,
        '--json',
      );
      expect(result.code).toBe(0);
      expect(result.stdout + result.stderr).not.toContain(KEY);
      expect(result.stdout).toContain('done [redacted]');
      const files = (fs.readdirSync(out, { recursive: true }) as string[]).filter((f) =>
        fs.statSync(path.join(out, f)).isFile(),
      );
      expect(files.length).toBeGreaterThanOrEqual(3);
      for (const file of files) {
        const text = fs.readFileSync(path.join(out, file), 'utf8');
        expect(text, file).not.toContain(KEY);
        expect(text, file).toContain('[redacted]');
      }
      // what the program printed goes back to the model redacted too (its own code is history it wrote)
      const toolMessage = (leaky.requests[1]!.body.messages as { role: string; content: string }[]).find(
        (m) => m.role === 'tool',
      );
      expect(toolMessage?.content).toBe('key: [redacted]\nthe key is [redacted]');
    } finally {
      await leaky.close();
    }
  }, 120_000);

  it('model options from the command line and a task reach the API; a bad option is a usage error', async () => {
    const tasks = scratch.write(
      'opts.jsonl',
      `${JSON.stringify({ id: 'o', task: 'options task', check: { contains: 'ok' }, options: { seed: 3 } })}\n`,
    );
    const opts = await startFakeModelServer({
      script: { rules: [{ match: 'options task', replies: [{ text: 'ok' }] }] },
    });
    try {
      const result = await evalCli(
        tasks,
        '--bindings',
        BINDINGS,
        '--models',
        `openai:o4-mini@${opts.url}/v1`,
        '--modes',
        'code',
        '--max-tokens',
        '900',
        '--reasoning-effort',
        'high',
        '--seed',
        '1',
      );
      expect(result.code).toBe(0);
      expect(opts.requests[0]!.body).toMatchObject({ max_completion_tokens: 900, reasoning_effort: 'high', seed: 3 });
      const bad = await evalCli(
        tasks,
        '--bindings',
        BINDINGS,
        '--models',
        `openai:m@${opts.url}/v1`,
        '--reasoning-effort',
        'extreme',
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--reasoning-effort');
    } finally {
      await opts.close();
    }
  }, 120_000);

  it('--model-options gives each model its own options over the flags; a task still wins; a bad file is a usage error', async () => {
    const tasks = scratch.write(
      'per-model.jsonl',
      `${JSON.stringify({ id: 'p', task: 'per model task', check: { contains: 'ok' }, options: { seed: 3 } })}\n`,
    );
    const table = scratch.write(
      'model-options.json',
      JSON.stringify({
        '*': { temperature: 0.5 },
        'o4-mini': { reasoningEffort: 'low', seed: 9 },
        'gpt-4.1': { temperature: 1 },
      }),
    );
    const server = await startFakeModelServer({
      script: { rules: [{ match: 'per model task', replies: [{ text: 'ok' }] }] },
    });
    try {
      const models = `openai:o4-mini@${server.url}/v1,openai:gpt-4.1@${server.url}/v1`;
      const result = await evalCli(
        tasks,
        '--bindings',
        BINDINGS,
        '--models',
        models,
        '--modes',
        'code',
        '--temperature',
        '0.2',
        '--model-options',
        table,
      );
      expect(result.code).toBe(0);
      const byModel = Object.fromEntries(server.requests.map((r) => [r.body.model as string, r.body]));
      expect(byModel['o4-mini']).toMatchObject({ temperature: 0.5, reasoning_effort: 'low', seed: 3 });
      expect(byModel['gpt-4.1']).toMatchObject({ temperature: 1, seed: 3 });
      expect(byModel['gpt-4.1']).not.toHaveProperty('reasoning_effort');
      const badTable = scratch.write('bad-options.json', JSON.stringify({ o3: { temperature: 9 } }));
      const bad = await evalCli(tasks, '--bindings', BINDINGS, '--models', models, '--model-options', badTable);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--model-options: .*bad-options\.json: o3\.temperature: /);
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a bad tasks line exits 2 naming the file, line and field', async () => {
    const tasks = scratch.write(
      'broken.jsonl',
      `${JSON.stringify({ id: 'ok', task: 'x', check: { exact: '1' } })}\n{"id": "two", "task": "y", "check": {"regex": "z"}}\n`,
    );
    const result = await evalCli(tasks, '--bindings', BINDINGS, '--models', 'openai:m');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.jsonl:2: "check"/);
  });
});
