// `ptc` as users install it (issue 28.5): `npm run pack:cli` packs the CLI, `npm install -g` puts it into an empty
// prefix offline with an empty npm cache (so the package can need nothing from the registry), and the installed `ptc`
// runs the examples from a folder outside the checkout, where no node_modules of the repository can be reached.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI_KILL_MS, scratchDir, type CliOutcome } from './cli-harness.js';

const exec = promisify(execFile);
const repo = path.resolve('.');
const { version } = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };

describe('the packed ptc package', { timeout: 300_000 }, () => {
  const scratch = scratchDir('ptc-npm-package-');
  const prefix = path.join(scratch.dir, 'prefix');
  const examples = path.join(scratch.dir, 'examples');
  let tarball = '';
  let files: string[] = [];
  // only the installed package's bin folder and node's own: no ptc or node_modules from the checkout
  const env: NodeJS.ProcessEnv = {
    PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
    HOME: path.join(scratch.dir, 'home'),
    PTC_BINDINGS_CACHE: path.join(scratch.dir, 'bindings-cache'),
  };

  const installed = async (...argv: string[]): Promise<CliOutcome> => {
    try {
      const { stdout, stderr } = await exec('ptc', argv, {
        cwd: examples,
        env,
        encoding: 'utf8',
        timeout: CLI_KILL_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 64 << 20,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  beforeAll(async () => {
    // packs the dist/ the test suite built (no production rebuild under the other suites' feet)
    const { stdout } = await exec(process.execPath, ['scripts/pack-cli.mjs', '--no-build', '--out-dir', scratch.dir], {
      cwd: repo,
      encoding: 'utf8',
    });
    tarball = path.join(scratch.dir, `ptc-playground-${version}.tgz`);
    expect(stdout).toContain(`ptc-playground-${version}.tgz`);
    files = (await exec('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 16 << 20 })).stdout
      .split('\n')
      .filter(Boolean);
    fs.mkdirSync(env.HOME as string);
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-npm-cache-'));
    try {
      await exec(
        'npm',
        ['install', '--global', '--prefix', prefix, '--offline', '--cache', cache, '--no-audit', '--no-fund', tarball],
        {
          env: { ...process.env, npm_config_cache: cache },
          encoding: 'utf8',
        },
      );
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
    fs.cpSync(path.join(repo, 'examples'), examples, { recursive: true });
  }, 300_000);

  it('ships only what ptc runs, declares no dependencies and no placeholder repository', () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(prefix, 'lib', 'node_modules', 'ptc-playground', 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest.bin).toEqual({ ptc: 'dist/cli.mjs' });
    expect(manifest.version).toBe(version);
    expect(manifest.dependencies).toBeUndefined();
    expect(JSON.stringify(manifest)).not.toMatch(/example\.invalid/);
    expect(files).toContain('package/dist/cli.mjs');
    expect(files).toContain('package/dist/node_modules/esbuild-wasm/esbuild.wasm');
    expect(files).toContain('package/python/ptc_runner.py');
    expect(files).toContain('package/dist/runtime/pyodide-child.cjs');
    expect(files).toContain('package/dist/node_modules/pyodide/pyodide.asm.wasm');
    // no extension, webview, source, test or source-map files
    const outside = files.filter(
      (f) =>
        !/^package\/(dist\/(cli\.mjs|runtime\/|node_modules\/(esbuild-wasm|amaro|pyodide)\/)|python\/[\w]+\.py$|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/.test(
          f,
        ),
    );
    expect(outside).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    // npm installed nothing beside it: everything it needs is in the package
    expect(fs.existsSync(path.join(prefix, 'lib', 'node_modules', 'ptc-playground', 'node_modules'))).toBe(false);
    expect(fs.readdirSync(path.join(prefix, 'lib', 'node_modules'))).toEqual(['ptc-playground']);
  });

  it('ptc --version names the packed version', async () => {
    const run = await installed('--version');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`ptc ${version} (node ${process.versions.node})\n`);
  });

  it('ptc run runs an example program in both languages', async () => {
    for (const program of ['programs/cities.ts', 'programs/cities.py']) {
      const run = await installed('run', program, '--bindings', 'programs/tools.bindings.mjs', '--json');
      expect(run.code, `${program}: ${run.stderr}`).toBe(0);
      const result = JSON.parse(run.stdout) as { value: unknown; calls: unknown[] };
      expect(result.value).toEqual({ total: 6380151, largest: 'Berlin' });
      expect(result.calls).toHaveLength(4);
    }
  });

  it('ptc test replays the examples (a TypeScript bindings module bundled by the shipped esbuild-wasm)', async () => {
    const run = await installed('test', '.');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/✓ tour\.ptcnb {2}10 passed/);
    expect(run.stdout).toMatch(/^13 passed, 0 failed$/m);
  });
});
