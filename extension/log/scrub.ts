import os from 'node:os';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Builds a scrubber that turns the user's home folder into `~` wherever it appears (paths, file URIs).
export function homeScrubber(home: string = os.homedir()): (text: string) => string {
  const trimmed = home.replace(/[\\/]+$/, '');
  // `/` alone (or an empty home) would rewrite every path
  if (trimmed.length < 2) return (text) => text;
  const variants = new Set([trimmed, trimmed.replace(/\\/g, '/'), encodeURI(trimmed.replace(/\\/g, '/'))]);
  const pattern = new RegExp(`(${[...variants].map(escapeRegExp).join('|')})(?=$|[\\\\/"'\\s:)\\]}>,;])`, 'g');
  return (text) => text.replace(pattern, '~');
}
