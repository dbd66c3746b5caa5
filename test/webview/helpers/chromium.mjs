// Debian's Chromium for the webview tests: found, installed with apt-get when missing, or reported as unavailable.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.PTC_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function hasAptGet() {
  return spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

// { state: 'present' } | { state: 'installable' } | { state: 'unavailable', reason }
export function chromiumStatus() {
  if (existsSync(CHROMIUM_PATH)) return { state: 'present' };
  if (hasAptGet()) return { state: 'installable' };
  return {
    state: 'unavailable',
    reason: `no Chromium at ${CHROMIUM_PATH} and no apt-get to install it (apt-get install -y chromium)`,
  };
}

// Installs Debian's chromium package if the binary is missing; throws with apt's output when that fails.
export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const run = spawnSync('sh', ['-c', 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium'], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (run.status !== 0 || !existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `could not install chromium with apt-get (exit ${run.status}):\n${(run.stderr ?? '').slice(-2000)}`,
    );
  }
  return CHROMIUM_PATH;
}

// One Chromium with a fresh profile directory; close() also removes the profile.
export async function launchChromium() {
  const executablePath = ensureChromium();
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'ptc-webview-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1000, height: 800 },
    deviceScaleFactor: 1,
  });
  return {
    context,
    version: context.browser()?.version() ?? 'unknown',
    async close() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
