// Launches Debian's Chromium through playwright-core: headless, isolated, with no background network traffic.
import { chromium } from 'playwright-core';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

// Playwright gives each launch a fresh temporary profile and removes it on close.
export async function launchBrowser(executablePath) {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}
