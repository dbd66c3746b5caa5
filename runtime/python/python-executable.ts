import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locateAsset } from '../assets/locate.js';
import { errorMessage } from '../output/error-message.js';

// The runner's modules (python/), staged per run; compiled once per interpreter so runs skip compiling.
export const RUNNER_MODULES = [
  'ptc_runner',
  'ptc_wire',
  'ptc_json',
  'ptc_logs',
  'ptc_errors',
  'ptc_bindings',
  'ptc_sandbox',
  'ptc_determinism',
  'ptc_program',
] as const;
export const RUNNER_ENTRY = 'ptc_runner';

export interface PythonExecutable {
  // the real interpreter binary (a shim such as pyenv's is resolved through sys.executable)
  path: string;
  version: string;
  // file name → bytes, staged into each run's private runner dir
  runnerFiles: Map<string, Buffer>;
  entryFile: string;
  // installed third-party packages; added to sys.path without running their .pth hooks
  sitePackages: string[];
  // sys.base_prefix and the directories the standard library imports from: bound read-only into the sandbox
  prefix: string;
  importDirs: string[];
}

export type PythonLookup = { ok: true; python: PythonExecutable } | { ok: false; message: string };

// flags of every run: isolated mode, no site import (its .pth hooks cost tens of ms), no bytecode writes,
// unbuffered stdio, UTF-8 mode whatever the (empty) locale says
export const PYTHON_FLAGS = ['-I', '-S', '-B', '-u', '-X', 'utf8'];

// One interpreter start: who it is, where its packages live, and the runner compiled to bytecode by it.
const IDENTIFY_AND_COMPILE = [
  'import json, os, sys',
  'try:',
  '    import site',
  '    packages = [p for p in site.getsitepackages() if os.path.isdir(p)]',
  'except Exception:',
  '    packages = []',
  'compiled = None',
  'if sys.implementation.name == "cpython" and sys.version_info >= (3, 10) and len(sys.argv) > 3:',
  '    try:',
  '        import py_compile',
  '        for name in sys.argv[3:]:',
  '            py_compile.compile(f"{sys.argv[1]}/{name}.py", cfile=f"{sys.argv[2]}/{name}.pyc", doraise=True)',
  '        compiled = True',
  '    except Exception as error:',
  '        compiled = f"{type(error).__name__}: {error}"',
  'dirs = [os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)]',
  'print(json.dumps({"impl": sys.implementation.name, "version": list(sys.version_info[:3]), "executable": os.path.realpath(sys.executable or ""), "sitePackages": packages, "compiled": compiled, "prefix": os.path.realpath(sys.base_prefix), "importDirs": dirs}))',
].join('\n');

function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; stdout: string; stderr: string; error?: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env, timeout: 20_000, killSignal: 'SIGKILL', maxBuffer: 1 << 20, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ ok: error === null, stdout, stderr, ...(error === null ? {} : { error: error.message }) });
      },
    );
  });
}

function isExecutableFile(candidate: string): boolean {
  try {
    const stat = fs.statSync(candidate);
    if (!stat.isFile()) return false;
    fs.accessSync(candidate, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// A bare name is looked up on PATH (absolute entries only; directories named like the interpreter are skipped).
export function findOnPath(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  if (name.includes('/')) return isExecutableFile(path.resolve(name)) ? path.resolve(name) : undefined;
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir.length === 0 || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  for (const dir of ['/usr/local/bin', '/usr/bin', '/bin']) {
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

// Resolves the interpreter, verifies it is CPython ≥ 3.10, and compiles the runner with it.
export async function probePython(requested: string | undefined): Promise<PythonLookup> {
  const name = requested ?? 'python3';
  if (name.length === 0 || name.includes('\0'))
    return { ok: false, message: `pythonPath ${JSON.stringify(name)} is not a usable path` };
  const found = findOnPath(name);
  if (found === undefined) {
    return {
      ok: false,
      message:
        requested === undefined
          ? 'python3 was not found on PATH: install CPython 3.10 or newer, or set pythonPath'
          : `Python interpreter not found or not executable: ${name}`,
    };
  }
  const entry = locateAsset(`python/${RUNNER_ENTRY}.py`);
  if (entry === undefined)
    return { ok: false, message: 'the Python runner (python/ptc_runner.py) is missing from this installation' };
  const source = path.dirname(entry);
  let out: string;
  try {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-pyc-'));
  } catch (error) {
    return {
      ok: false,
      message: `cannot compile the Python runner: no writable temporary directory (${errorMessage(error)})`,
    };
  }
  try {
    // shims (pyenv, asdf) need PATH and HOME to pick their interpreter; the program itself never sees them
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' };
    const identify = await run(found, ['-I', '-B', '-c', IDENTIFY_AND_COMPILE, source, out, ...RUNNER_MODULES], env);
    let info: {
      impl?: unknown;
      version?: unknown;
      executable?: unknown;
      sitePackages?: unknown;
      compiled?: unknown;
      prefix?: unknown;
      importDirs?: unknown;
    } = {};
    try {
      info = JSON.parse(identify.stdout.trim().split('\n').pop() ?? '') as typeof info;
    } catch {
      return {
        ok: false,
        message: `${found} did not answer as a Python interpreter (${identify.error ?? identify.stderr.trim().slice(0, 200)})`,
      };
    }
    const version = Array.isArray(info.version) ? info.version.map(Number) : [];
    const [major = 0, minor = 0] = version;
    const versionText = version.join('.');
    if (info.impl !== 'cpython')
      return {
        ok: false,
        message: `${found} is ${String(info.impl)} ${versionText}; PTC Playground needs CPython 3.10 or newer`,
      };
    if (major !== 3 ? major < 3 : minor < 10)
      return { ok: false, message: `${found} is CPython ${versionText}; PTC Playground needs CPython 3.10 or newer` };
    if (typeof info.compiled === 'string' && /SyntaxError/.test(info.compiled))
      return { ok: false, message: `the Python runner does not compile with ${found}: ${info.compiled}` };
    const executable =
      typeof info.executable === 'string' && isExecutableFile(info.executable) ? info.executable : found;
    const sitePackages = Array.isArray(info.sitePackages)
      ? info.sitePackages.filter((p): p is string => typeof p === 'string' && path.isAbsolute(p))
      : [];
    const runner = stageableRunner(source, info.compiled === true ? out : undefined);
    if (!runner.ok) return runner;
    const prefix =
      typeof info.prefix === 'string' && path.isAbsolute(info.prefix)
        ? info.prefix
        : path.dirname(path.dirname(executable));
    const importDirs = Array.isArray(info.importDirs)
      ? info.importDirs.filter((p): p is string => typeof p === 'string' && path.isAbsolute(p))
      : [];
    return {
      ok: true,
      python: {
        path: executable,
        version: versionText,
        runnerFiles: runner.files,
        entryFile: runner.entry,
        sitePackages,
        prefix,
        importDirs,
      },
    };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

// The runner's bytes, held in memory and written into each run's private dir: bytecode when it compiled, else sources.
function stageableRunner(
  source: string,
  compiledDir: string | undefined,
): { ok: true; files: Map<string, Buffer>; entry: string } | { ok: false; message: string } {
  const files = new Map<string, Buffer>();
  try {
    if (compiledDir !== undefined) {
      for (const name of RUNNER_MODULES)
        files.set(`${name}.pyc`, fs.readFileSync(path.join(compiledDir, `${name}.pyc`)));
      return { ok: true, files, entry: `${RUNNER_ENTRY}.pyc` };
    }
    for (const name of RUNNER_MODULES) files.set(`${name}.py`, fs.readFileSync(path.join(source, `${name}.py`)));
    return { ok: true, files, entry: `${RUNNER_ENTRY}.py` };
  } catch (error) {
    return { ok: false, message: `the Python runner is incomplete: ${errorMessage(error)}` };
  }
}

const lookups = new Map<string, Promise<PythonLookup>>();

// Resolved once per requested interpreter (a later PATH change is ignored); a failed lookup is tried again next time,
// so fixing the environment (installing Python, a usable TMPDIR) needs no restart.
export function resolvePython(requested: string | undefined): Promise<PythonLookup> {
  const key = requested ?? '';
  let lookup = lookups.get(key);
  if (lookup === undefined) {
    lookup = probePython(requested);
    lookups.set(key, lookup);
    void lookup.then((found) => {
      if (!found.ok && lookups.get(key) === lookup) lookups.delete(key);
    });
  }
  return lookup;
}
