// Launches Debian's Chromium through playwright-core: headless, isolated, with no background network traffic.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../test/webview/helpers/chromium.mjs';

// the same flags as the renderer tests (no background network on this closed network), plus a roomier /dev/shm
const E2E_ARGS = [...CHROMIUM_ARGS, '--disable-dev-shm-usage'];

// Playwright gives each launch a fresh temporary profile and removes it on close.
export async function launchBrowser(executablePath) {
  return chromium.launch({ executablePath, headless: true, args: E2E_ARGS, timeout: 60_000 });
}
