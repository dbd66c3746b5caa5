// Second launcher for the same extension-host suites: desktop VS Code through @vscode/test-electron.
// Used when VSCODE_EXECUTABLE_PATH names a local build (or PTC_E2E_LAUNCHER=electron on a machine with a normal
// network, where test-electron downloads PTC_E2E_VSCODE_VERSION, default the engines.vscode minimum).
// The machines here reach no VS Code download, so this path is exercised only where one is available.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { run } from './exec.mjs';
import { collectOutcome } from './exthost-suite.mjs';
import { info } from './log.mjs';
import { REPO_ROOT } from './paths.mjs';
import { stopGroup, track } from './processes.mjs';
import { prepareWorkspace } from './workspace.mjs';

const SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
};

// Unpacks the VSIX's extension/ folder, so the suites exercise exactly what ships.
async function unpackVsix(vsix, dir) {
  await mkdir(dir, { recursive: true });
  await run('unzip', ['-q', '-o', vsix, 'extension/*', '-d', dir]);
  return path.join(dir, 'extension');
}

// Desktop VS Code needs a display; without one, start Xvfb in its own process group for the run.
async function ensureDisplay(logs) {
  if (process.platform !== 'linux' || process.env.DISPLAY) return undefined;
  const xvfb = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'].find((p) => existsSync(p));
  if (!xvfb) throw new Error('desktop VS Code needs a display: set DISPLAY or install Xvfb (apt-get install -y xvfb)');
  const display = `:${90 + (process.pid % 9)}`;
  const child = spawn(xvfb, [display, '-screen', '0', '1600x1000x24', '-nolisten', 'tcp'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  track(child.pid);
  await new Promise((r) => setTimeout(r, 1000));
  if (child.exitCode !== null) throw new Error(`Xvfb ${display} exited at once (see ${logs})`);
  process.env.DISPLAY = display;
  return async () => {
    delete process.env.DISPLAY;
    await stopGroup(child.pid);
  };
}

async function minimumEngine() {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  return String(manifest.engines?.vscode ?? 'stable').replace(/^[\^~>=\s]+/, '');
}

// The flags runTests passes, minus --disable-workspace-trust: runTests always adds that one, so the Restricted
// Mode pass launches the executable itself with the same arguments otherwise.
function restrictedModeArgs({ folder, extensionPath, bundle, userData, extensionsDir }) {
  return [
    folder,
    '--no-sandbox',
    '--disable-gpu-sandbox',
    '--disable-updates',
    '--skip-welcome',
    '--skip-release-notes',
    '--disable-extensions',
    `--extensionDevelopmentPath=${extensionPath}`,
    `--extensionTestsPath=${bundle.index}`,
    `--user-data-dir=${userData}`,
    `--extensions-dir=${extensionsDir}`,
  ];
}

async function runRestricted(executable, args, logFile) {
  const child = spawn(executable, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  track(child.pid);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  await stopGroup(child.pid);
  await writeFile(logFile, output);
  return { code, output };
}

// Runs every bundled pass under desktop VS Code; returns outcomes shaped like the code-server launcher's.
export async function runElectronPasses({ bundles, vsix, tmp, logs }) {
  const executable = process.env.VSCODE_EXECUTABLE_PATH
    ? path.resolve(process.env.VSCODE_EXECUTABLE_PATH)
    : await downloadAndUnzipVSCode({ version: process.env.PTC_E2E_VSCODE_VERSION ?? (await minimumEngine()) });
  const extensionPath = await unpackVsix(vsix, path.join(tmp, 'electron-extension'));
  const stopDisplay = await ensureDisplay(logs);
  const outcomes = [];
  try {
    for (const [pass, bundle] of Object.entries(bundles)) {
      const group = `extension host (${pass === 'untrusted' ? 'Restricted Mode' : 'trusted'}, desktop VS Code)`;
      const base = path.join(tmp, `electron-${pass}`);
      const userData = path.join(base, 'user-data');
      const extensionsDir = path.join(base, 'extensions');
      await mkdir(path.join(userData, 'User'), { recursive: true });
      await mkdir(extensionsDir, { recursive: true });
      await writeFile(path.join(userData, 'User', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
      const folder = await prepareWorkspace(path.join(base, 'workspace'));
      await rm(path.join(bundle.dir, 'results.json'), { force: true });
      info(`electron:${pass}`, `running ${bundle.files.length} suite file(s) in ${executable}`);
      let streamed = '';
      if (pass === 'untrusted') {
        const { output } = await runRestricted(
          executable,
          restrictedModeArgs({ folder, extensionPath, bundle, userData, extensionsDir }),
          path.join(logs, `electron-${pass}.log`),
        );
        streamed = output;
      } else {
        try {
          await runTests({
            vscodeExecutablePath: executable,
            extensionDevelopmentPath: extensionPath,
            extensionTestsPath: bundle.index,
            launchArgs: [
              folder,
              '--disable-extensions',
              `--user-data-dir=${userData}`,
              `--extensions-dir=${extensionsDir}`,
            ],
          });
        } catch (error) {
          // a failing suite makes runTests reject; results.json says which tests failed
          streamed = String(error);
        }
      }
      outcomes.push({ group, ...(await collectOutcome(bundle, streamed)) });
    }
  } finally {
    await stopDisplay?.();
  }
  return outcomes;
}
