import type { Translate } from './translate.js';

// Human-readable sizes and times shared by the renderer, the inspector and the text fallback; units go through `t`.

// 1234 → "1 234" (thin grouping that reads the same in every locale)
export function formatCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

// Bytes with binary units: "512 B", "1.5 KiB", "1.0 MiB".
export function formatBytes(bytes: number, t: Translate): string {
  if (bytes < 1024) return t('{0} B', bytes);
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < 2) {
    value /= 1024;
    unit += 1;
  }
  const shown = value.toFixed(value < 10 ? 1 : 0);
  return unit === 0 ? t('{0} KiB', shown) : unit === 1 ? t('{0} MiB', shown) : t('{0} GiB', shown);
}

// Durations: "0.4 ms", "12 ms", "1.25 s", "2 min 5 s".
export function formatDuration(ms: number, t: Translate): string {
  if (ms === 0) return t('{0} ms', 0);
  if (ms < 1) return t('{0} ms', ms.toFixed(1));
  if (ms < 1000) return t('{0} ms', Math.round(ms));
  if (ms < 60_000) return t('{0} s', (ms / 1000).toFixed(ms < 10_000 ? 2 : 1));
  const minutes = Math.floor(ms / 60_000);
  return t('{0} min {1} s', minutes, Math.round((ms - minutes * 60_000) / 1000));
}
