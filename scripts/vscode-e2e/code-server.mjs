// Starts and stops code-server (VS Code 1.139 with a Node extension host) on loopback, with all state in temp dirs.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { run } from './exec.mjs';
import { info } from './log.mjs';
import { groupAlive, stopGroup, track } from './processes.mjs';

const READY_TIMEOUT_MS = 90_000;

// quiet, deterministic workbench: no telemetry, updates, gallery traffic, AI features or welcome pages
const BASE_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
  'security.workspace.trust.emptyWindow': false,
  'notebook.confirmDeleteRunningCell': false,
  'files.hotExit': 'off',
  'window.restoreWindows': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
};

// Creates one profile's directories (XDG, user data) below root; extensions may be shared between profiles.
export async function createProfile(root, name, { extensionsDir }) {
  const dir = path.join(root, name);
  const profile = {
    dir,
    xdgConfig: path.join(dir, 'xdg-config'),
    xdgData: path.join(dir, 'xdg-data'),
    xdgCache: path.join(dir, 'xdg-cache'),
    userData: path.join(dir, 'user-data'),
    extensionsDir,
  };
  for (const d of [
    profile.xdgConfig,
    profile.xdgData,
    profile.xdgCache,
    path.join(profile.userData, 'User'),
    extensionsDir,
  ]) {
    await mkdir(d, { recursive: true });
  }
  await writeUserSettings(profile, {});
  return profile;
}

// Writes User/settings.json; the running workbench watches it, so theme switches apply live.
export async function writeUserSettings(profile, settings) {
  await writeFile(
    path.join(profile.userData, 'User', 'settings.json'),
    `${JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2)}\n`,
  );
}

// Environment for every code-server process: Node 24 first on PATH, XDG dirs inside the profile, no npm leakage.
export function serverEnv(profile, node) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'NODE_OPTIONS' && key !== 'VSCODE_IPC_HOOK_CLI') env[key] = value;
  }
  return {
    ...env,
    PATH: `${node.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: profile.xdgConfig,
    XDG_DATA_HOME: profile.xdgData,
    XDG_CACHE_HOME: profile.xdgCache,
    XDG_RUNTIME_DIR: profile.xdgCache,
  };
}

// Installs a VSIX into the profile's extensions dir (before any server starts, as code-server prefers).
export async function installVsix({ node, codeServer, profile, vsix, logFile }) {
  const { stdout } = await run(
    node.bin,
    [
      codeServer.entry,
      '--user-data-dir',
      profile.userData,
      '--extensions-dir',
      profile.extensionsDir,
      '--force',
      '--install-extension',
      vsix,
    ],
    { env: serverEnv(profile, node), logFile, timeoutMs: 120_000 },
  );
  if (!/successfully installed/i.test(stdout))
    throw new Error(`code-server did not confirm installing ${vsix}:\n${stdout}`);
  const { stdout: listed } = await run(
    node.bin,
    [
      codeServer.entry,
      '--user-data-dir',
      profile.userData,
      '--extensions-dir',
      profile.extensionsDir,
      '--list-extensions',
      '--show-versions',
    ],
    { env: serverEnv(profile, node), logFile, timeoutMs: 60_000 },
  );
  return listed.trim().split('\n').filter(Boolean);
}

// Finds a free loopback port by binding port 0.
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, child, logFile) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(
        `code-server exited before it was ready (${child.exitCode ?? child.signalCode}):\n${log.slice(-3000)}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${READY_TIMEOUT_MS / 1000} s (log: ${logFile})`);
}

// Starts code-server in its own process group (detached = setsid) and resolves once /healthz answers.
export async function startServer({ node, codeServer, profile, folder, trust, logFile, extraArgs = [] }) {
  const port = await freePort();
  const args = [
    codeServer.entry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir',
    profile.userData,
    '--extensions-dir',
    profile.extensionsDir,
    // a built VS Code ignores extension-test payloads without it
    '--vscode-option',
    'enable-smoke-test-driver',
    ...(trust === 'disabled' ? ['--disable-workspace-trust'] : []),
    ...extraArgs,
    folder,
  ];
  await mkdir(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(node.bin, args, {
    env: serverEnv(profile, node),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child.pid);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  try {
    await waitForHealth(url, child, logFile);
  } catch (error) {
    await stopGroup(child.pid);
    throw error;
  }
  info(
    'code-server',
    `listening on ${url} (pid ${child.pid}, ready in ${((Date.now() - started) / 1000).toFixed(1)} s, workspace trust ${trust})`,
  );
  return {
    url,
    port,
    pid: child.pid,
    folder,
    logFile,
    async stop() {
      // the group holds the server, its extension hosts, file watchers and anything the extension spawned
      await stopGroup(child.pid);
      if (groupAlive(child.pid)) throw new Error(`code-server process group ${child.pid} survived SIGKILL`);
    },
  };
}

// Reads the workbench configuration the server embeds in its page; remoteAuthority names the server in URIs.
export async function readWorkbenchConfig(server) {
  const response = await fetch(`${server.url}/?folder=${encodeURIComponent(server.folder)}`);
  const html = await response.text();
  const match = /id="vscode-workbench-web-configuration"\s+data-settings="([^"]*)"/.exec(html);
  if (!match?.[1])
    throw new Error(`no vscode-workbench-web-configuration meta tag in ${server.url} (HTTP ${response.status})`);
  const decoded = match[1]
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(decoded);
}
