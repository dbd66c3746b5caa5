// `npm run test:vscode`: the real-VS-Code end-to-end suites.
// Provisions the cached toolchain, packages the VSIX, installs it into a throwaway profile, starts code-server on
// loopback and runs (1) the extension-host suites test/vscode/*.vscode.test.ts through the smoke-test driver and
// (2) the Playwright UI suite; with VSCODE_EXECUTABLE_PATH set, the extension-host suites also run under
// @vscode/test-electron. Everything started is stopped, state lives in a temp dir, and the last line is
// `N passed, N failed`.
//
// Environment: PTC_E2E_CACHE (toolchain cache, default ~/.cache/ptc-playground/vscode-e2e), PTC_E2E_FILTER (suite file
// substrings, comma-separated), PTC_E2E_GREP (mocha grep), PTC_E2E_SKIP_UI=1, PTC_E2E_KEEP=1 (keep the temp dir),
// PTC_E2E_VSIX (test a prebuilt VSIX), PTC_E2E_UPDATE_SCREENSHOTS=1 (copy the screenshots into docs/screenshots),
// PTC_E2E_LAUNCHER=code-server|electron|both, VSCODE_EXECUTABLE_PATH (a local VS Code build for test-electron).
import { mkdtemp, mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundleSuites } from './bundle-tests.mjs';
import { launchBrowser } from './browser.mjs';
import { createProfile, installVsix, startServer } from './code-server.mjs';
import { runElectronPasses } from './electron-launcher.mjs';
import { runExtensionHostPass } from './exthost-suite.mjs';
import { findLeakedProcesses, stopLeakedProcesses } from './leaks.mjs';
import { elapsedSeconds, info, report } from './log.mjs';
import { packageExtension } from './package.mjs';
import { cacheDir, REPO_ROOT, RESULTS_DIR } from './paths.mjs';
import { installCleanupHandlers } from './processes.mjs';
import { provisionToolchain } from './provision.mjs';
import { runUiSuite } from './ui-suite.mjs';
import { prepareWorkspace } from './workspace.mjs';

const env = process.env;
const launcher = env.PTC_E2E_LAUNCHER ?? (env.VSCODE_EXECUTABLE_PATH ? 'both' : 'code-server');
const keep = env.PTC_E2E_KEEP === '1';
const logs = path.join(RESULTS_DIR, 'logs');

const outcomes = [];
function record(group, outcome) {
  outcomes.push({ group, ...outcome });
}
function recordFailure(group, title, error) {
  record(group, {
    passed: [],
    failed: [{ title, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }],
    pending: [],
  });
}

async function installedExtensionPath(listed, extensionsDir) {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
  const line = listed.find((l) => l.toLowerCase().startsWith(`${id}@`));
  if (!line)
    throw new Error(
      `code-server does not list ${id} after installing the VSIX (listed: ${listed.join(', ') || 'nothing'})`,
    );
  return path.join(extensionsDir, `${id}-${line.slice(id.length + 1)}`);
}

// Runs one code-server session (one server start) and records its outcomes; the server always stops.
async function withServer({ toolchain, profile, folder, trust, name }, body) {
  const server = await startServer({
    node: toolchain.node,
    codeServer: toolchain.codeServer,
    profile,
    folder,
    trust,
    logFile: path.join(logs, `server-${name}.log`),
  });
  try {
    await body(server);
  } finally {
    await server.stop();
    info('code-server', `stopped (${name})`);
  }
}

async function runCodeServerSuites({ toolchain, vsix, bundles, tmp }) {
  const extensionsDir = path.join(tmp, 'extensions');
  const trustedProfile = await createProfile(tmp, 'profile-trusted', { extensionsDir });
  const listed = await installVsix({
    node: toolchain.node,
    codeServer: toolchain.codeServer,
    profile: trustedProfile,
    vsix,
    logFile: path.join(logs, 'install.log'),
  });
  const extensionPath = await installedExtensionPath(listed, extensionsDir);
  info('install', `installed ${listed.join(', ')} into the throwaway profile`);
  const browser = await launchBrowser(toolchain.chromium);
  try {
    if (bundles.trusted) {
      const folder = await prepareWorkspace(path.join(tmp, 'workspace-trusted'));
      await withServer(
        { toolchain, profile: trustedProfile, folder, trust: 'disabled', name: 'trusted' },
        async (server) => {
          try {
            record(
              'extension host (trusted)',
              await runExtensionHostPass({
                browser,
                server,
                pass: 'trusted',
                bundle: bundles.trusted,
                extensionPath,
                logFile: path.join(logs, 'exthost-trusted.log'),
              }),
            );
          } catch (error) {
            recordFailure('extension host (trusted)', 'extension-host pass', error);
          }
        },
      );
    }
    if (env.PTC_E2E_SKIP_UI !== '1') {
      // a folder of its own: code-server restores a folder's open editors and groups, so the UI pass must not
      // inherit the notebooks the extension-host pass left open (its counts would include their cells)
      const folder = await prepareWorkspace(path.join(tmp, 'workspace-ui'));
      await withServer(
        { toolchain, profile: trustedProfile, folder, trust: 'disabled', name: 'ui' },
        async (server) => {
          try {
            record(
              'UI',
              await runUiSuite({
                browser,
                server,
                profile: trustedProfile,
                resultsDir: RESULTS_DIR,
                logFile: path.join(logs, 'ui.log'),
              }),
            );
          } catch (error) {
            recordFailure('UI', 'UI suite', error);
          }
        },
      );
    }
    if (bundles.untrusted) {
      // a fresh profile and folder: nothing has ever trusted them, so the window opens in Restricted Mode
      const profile = await createProfile(tmp, 'profile-untrusted', { extensionsDir });
      const folder = await prepareWorkspace(path.join(tmp, 'workspace-untrusted'));
      await withServer({ toolchain, profile, folder, trust: 'enabled', name: 'untrusted' }, async (server) => {
        try {
          record(
            'extension host (Restricted Mode)',
            await runExtensionHostPass({
              browser,
              server,
              pass: 'untrusted',
              bundle: bundles.untrusted,
              extensionPath,
              logFile: path.join(logs, 'exthost-untrusted.log'),
            }),
          );
        } catch (error) {
          recordFailure('extension host (Restricted Mode)', 'extension-host pass', error);
        }
      });
    }
  } finally {
    await browser.close().catch(() => {});
  }
}

function printReport() {
  let passed = 0;
  let failed = 0;
  let pending = 0;
  report('');
  for (const { group, passed: ok, failed: bad, pending: skipped } of outcomes) {
    report(`${group}:`);
    for (const title of ok) report(`  ✓ ${title}`);
    for (const title of skipped) report(`  - ${title} (pending)`);
    for (const { title, error } of bad) report(`  ✗ ${title}\n      ${String(error).split('\n').join('\n      ')}`);
    passed += ok.length;
    failed += bad.length;
    pending += skipped.length;
  }
  if (outcomes.length === 0) failed += 1;
  report(
    `\nlogs and screenshots: ${path.relative(process.cwd(), RESULTS_DIR) || RESULTS_DIR} (${elapsedSeconds().toFixed(0)} s)`,
  );
  report(`${passed} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
  return failed;
}

async function main() {
  await rm(RESULTS_DIR, { recursive: true, force: true });
  await mkdir(logs, { recursive: true });
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ptc-vscode-e2e-'));
  installCleanupHandlers(async () => {
    if (!keep) await rm(tmp, { recursive: true, force: true });
  });
  info('start', `temp state in ${tmp}, toolchain cache in ${cacheDir()}`);
  try {
    const needsCodeServer = launcher !== 'electron';
    const [toolchain, packaged] = await Promise.all([
      needsCodeServer ? provisionToolchain(cacheDir(), { logFile: path.join(logs, 'provision.log') }) : undefined,
      env.PTC_E2E_VSIX
        ? { vsix: path.resolve(env.PTC_E2E_VSIX), files: [] }
        : packageExtension({ out: path.join(tmp, 'ptc-playground.vsix'), logFile: path.join(logs, 'package.log') }),
    ]);
    info('package', `VSIX ${packaged.vsix}${packaged.files.length ? ` (${packaged.files.length} files)` : ''}`);
    const bundles = await bundleSuites({
      outRoot: path.join(tmp, 'tests'),
      filter: env.PTC_E2E_FILTER,
      grep: env.PTC_E2E_GREP,
    });
    if (needsCodeServer) await runCodeServerSuites({ toolchain, vsix: packaged.vsix, bundles, tmp });
    if (launcher === 'electron' || launcher === 'both') {
      for (const outcome of await runElectronPasses({ bundles, vsix: packaged.vsix, tmp, logs }))
        record(outcome.group, outcome);
    }
  } catch (error) {
    recordFailure('setup', 'provisioning, packaging or starting VS Code', error);
  } finally {
    const leaked = await findLeakedProcesses(tmp);
    if (leaked.length > 0) {
      recordFailure(
        'cleanup',
        'nothing the suites started is still running',
        new Error(`still running after the servers stopped:\n${leaked.map((p) => `${p.pid} ${p.cmdline}`).join('\n')}`),
      );
      await stopLeakedProcesses(leaked);
    }
    if (!keep) await rm(tmp, { recursive: true, force: true }).catch(() => {});
    else info('keep', `temp state kept in ${tmp}`);
  }
  const failed = printReport();
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
