import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import {
  errorMessage,
  bindingsCacheFolder,
  bubblewrapChoice,
  createSession,
  tempDirProblem,
  type Language,
  type SandboxReport,
} from '../../index.js';
import { visibleJson, visibleText } from '../terminal-text.js';
import { ptcVersion } from '../version.js';
import { parseCommandLine, UsageError, type CliCommand, type FlagSpecs } from '../usage-error.js';

const FLAGS = {
  json: { type: 'boolean', help: 'print the findings as JSON' },
} as const satisfies FlagSpecs;

interface Findings {
  ptc: string;
  node: { version: string; path: string };
  platform: string;
  python: string;
  bubblewrap: string;
  userNamespaces: Record<string, string>;
  tempDir: string;
  bindingsCache: string;
  sandbox: Record<Language, SandboxReport | string>;
}

// The first line a program prints for `--version`, or why there is none.
function versionOf(command: string, args: string[]): string {
  try {
    const out = execFileSync(command, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return out.split('\n', 1)[0]?.trim() || 'found (no version printed)';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? 'not found'
      : `did not run: ${errorMessage(error).split('\n', 1)[0] ?? ''}`;
  }
}

// bubblewrap's version, from the executable PTC_BWRAP names where it names one (the runs use that one too).
function bubblewrapFinding(): string {
  const { env, path: chosen } = bubblewrapChoice();
  if (typeof chosen !== 'string') return versionOf('bwrap', ['--version']);
  return `${versionOf(chosen, ['--version'])} (${env}=${chosen})`;
}

// The kernel settings that decide whether bubblewrap can make its namespaces as this user.
function userNamespaces(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of [
    '/proc/sys/user/max_user_namespaces',
    '/proc/sys/kernel/unprivileged_userns_clone',
    '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
  ]) {
    try {
      out[file] = fs.readFileSync(file, 'utf8').trim();
    } catch {
      out[file] = 'absent';
    }
  }
  return out;
}

// What the sandbox proved for each language, from a real (trivial) run: the same probe every run relies on.
async function sandboxes(): Promise<Record<Language, SandboxReport | string>> {
  // the session's own default runtime keeps no spare processes: one run per language, nothing left behind
  const session = createSession();
  try {
    const out = {} as Record<Language, SandboxReport | string>;
    for (const language of ['typescript', 'python'] as const) {
      const outcome = await session.run({
        language,
        program: language === 'python' ? 'return 1' : 'return 1;',
        plan: { mode: 'mock' },
        limits: { timeoutMs: 60_000 },
      });
      if (outcome.kind === 'setup-failed') out[language] = outcome.message;
      else if (outcome.result.error !== undefined && outcome.result.error.kind !== 'sandbox-unavailable')
        out[language] = `${outcome.result.error.kind}: ${outcome.result.error.message}`;
      else out[language] = outcome.result.sandbox;
    }
    return out;
  } finally {
    await session.dispose();
  }
}

function readable(f: Findings): string {
  const lines = [
    `ptc          ${f.ptc}`,
    `node         ${f.node.version} (${f.node.path})`,
    `platform     ${f.platform}`,
    `python3      ${f.python}`,
    `bubblewrap   ${f.bubblewrap}${f.bubblewrap.startsWith('not found') ? ' — install it (Debian/Ubuntu: apt install bubblewrap) for the full sandbox' : ''}`,
    'user namespaces:',
    ...Object.entries(f.userNamespaces).map(([file, value]) => `  ${file} = ${value}`),
    `temp folder  ${f.tempDir}`,
    `bindings cache ${f.bindingsCache}`,
  ];
  for (const [language, report] of Object.entries(f.sandbox)) {
    if (typeof report === 'string') {
      lines.push(`sandbox (${language}): could not run: ${report}`);
      continue;
    }
    lines.push(
      `sandbox (${language}): ${report.enforcement} — network ${report.network}, filesystem ${report.filesystem}, child processes ${report.childProcess}`,
      `  layers in force: ${report.mechanisms.length === 0 ? 'none' : report.mechanisms.join(', ')}`,
    );
    for (const missing of report.missing ?? []) lines.push(`  missing: ${missing}`);
  }
  return `${visibleText(lines.join('\n'))}\n`;
}

// `ptc doctor`: what this machine offers ptc, for a bug report or to learn why the sandbox is partial.
export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: 'show what this machine offers ptc: interpreters, sandbox layers, caches, versions',
  usage: 'ptc doctor [--json]',
  flags: FLAGS,
  examples: ['# everything a bug report needs\nptc doctor', '# the same as JSON\nptc doctor --json'],
  async run(argv, io) {
    const { values, positionals } = parseCommandLine(argv, FLAGS, 'doctor');
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0] as string}"`);
    const findings: Findings = {
      ptc: ptcVersion(),
      node: { version: process.version, path: process.execPath },
      platform: `${os.type()} ${os.release()} ${process.arch}`,
      python: versionOf('python3', ['--version']),
      bubblewrap: bubblewrapFinding(),
      userNamespaces: process.platform === 'linux' ? userNamespaces() : {},
      tempDir: `${os.tmpdir()}${tempDirProblem() === undefined ? '' : ` — ${tempDirProblem() ?? ''}`}`,
      bindingsCache: bindingsCacheFolder() ?? 'off (PTC_BINDINGS_CACHE=off, or the folder is not private to this user)',
      sandbox: await sandboxes(),
    };
    io.stdout(values.json === true ? `${visibleJson(JSON.stringify(findings, null, 2))}\n` : readable(findings));
    return 0;
  },
};
