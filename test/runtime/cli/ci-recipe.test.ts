// The GitHub Actions recipe (issue 28.12): .github/workflows/ptc-test.yml parses, every expression in it names
// something that exists, every script is valid shell, the caller in docs/testing.md passes only inputs the workflow
// declares, and its ptc commands run for real: the plan step's matrix, then each shard of the examples with a JUnit
// report, the reports together holding every test cell exactly once (what the merged report shows).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ptcShim, scratchDir } from './cli-harness.js';
import { fencedBlocks } from './docs-blocks.js';

const exec = promisify(execFile);
const repo = path.resolve('.');
const WORKFLOW = '.github/workflows/ptc-test.yml';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  outputs?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
  steps: Step[];
}
interface Workflow {
  on: { workflow_call: { inputs: Record<string, { type: string; required?: boolean; default?: unknown }> } };
  jobs: Record<string, Job>;
}

const workflowText = fs.readFileSync(path.join(repo, WORKFLOW), 'utf8');
const workflow = parse(workflowText) as Workflow;
const inputs = workflow.on.workflow_call.inputs;

// Replaces ${{ … }} by the values a run would have; an expression it does not know fails the test by name.
function evaluate(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => {
    const value = context[expression];
    if (value === undefined) throw new Error(`no value for \${{ ${expression} }}`);
    return value;
  });
}

describe('the GitHub Actions recipe', { timeout: 300_000 }, () => {
  const scratch = scratchDir('ptc-ci-recipe-');
  const bin = path.join(scratch.dir, 'bin');
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };

  beforeAll(() => {
    // `ptc` as the workflow's install step leaves it; the examples in a folder of their own, as a user's repository
    ptcShim(bin);
    fs.cpSync(path.join(repo, 'examples'), path.join(scratch.dir, 'examples'), { recursive: true });
  });

  it('names only inputs, matrix keys, job outputs and steps that exist', () => {
    const expressions = [...workflowText.matchAll(/\$\{\{\s*(.+?)\s*\}\}/g)].map((m) => m[1] as string);
    expect(expressions.length).toBeGreaterThan(10);
    const stepIds = new Set(Object.values(workflow.jobs).flatMap((job) => job.steps.map((s) => s.id).filter(Boolean)));
    for (const expression of expressions) {
      const names = expression.match(/[a-zA-Z_][\w-]*(?:\.[\w-]+)+/g) ?? [];
      for (const name of names) {
        const [root, first, second, third] = name.split('.');
        if (root === 'inputs') expect(Object.keys(inputs), name).toContain(first);
        else if (root === 'matrix')
          expect(
            Object.values(workflow.jobs).some((j) => j.strategy?.matrix?.[first as string] !== undefined),
            name,
          ).toBe(true);
        else if (root === 'needs')
          expect(workflow.jobs[first as string]?.outputs?.[third as string], name).toBeDefined();
        else if (root === 'steps') expect(stepIds.has(first) && second === 'outputs', name).toBe(true);
        else throw new Error(`unexpected context in \${{ ${expression} }}`);
      }
    }
    for (const [name, job] of Object.entries(workflow.jobs)) {
      for (const needed of [job.needs ?? []].flat())
        expect(Object.keys(workflow.jobs), `${name} needs ${needed}`).toContain(needed);
    }
  });

  it('pins every action to a major version, and every script is valid bash', async () => {
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    for (const step of steps) if (step.uses !== undefined) expect(step.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
    for (const step of steps.filter((s) => s.run !== undefined)) await exec('bash', ['-n', '-c', step.run as string]);
    // the merged report runs when a shard failed too, and reads every shard's file
    const report = workflow.jobs.report as Job & { if?: string };
    expect(report.if).toBe('always()');
    expect(report.steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report@'))?.with?.report_paths).toBe(
      'test-results/ptc-*.xml',
    );
  });

  it("docs/testing.md's caller passes the required inputs and no undeclared one", () => {
    const yamlBlocks = fencedBlocks(
      'docs/testing.md',
      fs.readFileSync(path.join(repo, 'docs/testing.md'), 'utf8'),
    ).filter((b) => b.language === 'yaml');
    const callers = yamlBlocks
      .map((b) => parse(b.body) as { jobs?: Record<string, { uses?: string; with?: Record<string, unknown> }> })
      .flatMap((doc) => Object.values(doc.jobs ?? {}))
      .filter((job) => job.uses === `./${WORKFLOW}`);
    expect(callers).toHaveLength(1);
    const given = Object.keys(callers[0]?.with ?? {});
    for (const name of given) expect(Object.keys(inputs)).toContain(name);
    for (const [name, spec] of Object.entries(inputs)) if (spec.required === true) expect(given).toContain(name);
  });

  it("runs its plan and its shards' ptc test for real: every cell in exactly one shard's JUnit file", async () => {
    const plan = workflow.jobs.plan?.steps.find((s) => s.id === 'shards') as Step;
    const outputFile = path.join(scratch.dir, 'github-output');
    fs.writeFileSync(outputFile, '');
    const planEnv = Object.fromEntries(
      Object.entries(plan.env ?? {}).map(([k, v]) => [k, evaluate(v, { 'inputs.shards': '2' })]),
    );
    await exec('bash', ['-e', '-c', plan.run as string], { env: { ...env, ...planEnv, GITHUB_OUTPUT: outputFile } });
    const shards = JSON.parse(/^list=(.*)$/m.exec(fs.readFileSync(outputFile, 'utf8'))?.[1] ?? '') as number[];
    expect(shards).toEqual([1, 2]);

    const step = workflow.jobs.test?.steps.find((s) => s.run?.startsWith('ptc test')) as Step;
    const cases: string[] = [];
    for (const shard of shards) {
      const context = {
        'inputs.paths': 'examples/',
        'inputs.shards': String(shards.length),
        'inputs.jobs': '2',
        'inputs.sandbox': String(inputs.sandbox?.default),
        'matrix.shard': String(shard),
      };
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v, context)]));
      const run = await exec('bash', ['-e', '-c', step.run as string], {
        cwd: scratch.dir,
        env: { ...env, ...stepEnv },
        encoding: 'utf8',
      });
      expect(run.stdout).toMatch(/passed, 0 failed/);
      const xml = fs.readFileSync(path.join(scratch.dir, `test-results/ptc-${shard}.xml`), 'utf8');
      expect(xml).toMatch(/^<\?xml/);
      expect(xml).not.toMatch(/<failure/);
      cases.push(
        ...[
          ...xml.matchAll(
            /<testcase [^>]*classname="([^"]*)"[^>]*name="([^"]*)"|<testcase [^>]*name="([^"]*)"[^>]*classname="([^"]*)"/g,
          ),
        ].map((m) => m.slice(1).filter(Boolean).join(' ')),
      );
    }
    // 13 expectation cells in the examples (10 in the tour, 3 in the MCP weather notebook)
    expect(cases).toHaveLength(13);
    expect(new Set(cases).size).toBe(13);
  });
});
