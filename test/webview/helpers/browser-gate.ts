import { chromiumStatus } from './chromium.mjs';

// Whether the Chromium suites can run here; they skip (saying why) only when there is no binary and no apt-get.
export function chromiumGate(): { usable: boolean; title: (name: string) => string } {
  const status = chromiumStatus();
  const usable = status.state !== 'unavailable';
  return {
    usable,
    title: (name) => (status.state === 'unavailable' ? `${name} — SKIPPED: ${status.reason}` : name),
  };
}
