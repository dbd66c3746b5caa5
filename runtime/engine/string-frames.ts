// The two frames that carry a program's big output — a log line and a completion returning a string — read without a
// JSON.parse copy when the string has no escapes: its value is then exactly the text between the quotes, taken as a
// slice of the frame text (V8 shares the characters). A 60 MiB line is then held once, not once as frame text and
// again as its parsed value. Anything else (escapes, other shapes, other spellings) returns undefined and takes the
// ordinary path: full parse, lossless check, wire schema — which the result of this shortcut also goes through.

const LOG_PREFIXES = ['{"type":"log","stream":"stdout","text":"', '{"type":"log","stream":"stderr","text":"'] as const;
const DONE_PREFIX = '{"type":"done","value":"';
const SUFFIX = '"}';
// Shorter frames gain nothing from the shortcut.
const MIN_CHARS = 64 * 1024;
// A quote, a backslash or a control character (invalid raw in JSON): the content is not its own value.
const NOT_LITERAL = /["\\\u0000-\u001f]/;

export function shortcutStringFrame(
  text: string,
): { type: 'log'; stream: 'stdout' | 'stderr'; text: string } | { type: 'done'; value: string } | undefined {
  if (text.length < MIN_CHARS || !text.endsWith(SUFFIX)) return undefined;
  for (const prefix of LOG_PREFIXES) {
    if (!text.startsWith(prefix)) continue;
    const content = literalContent(text, prefix.length);
    return content === undefined
      ? undefined
      : { type: 'log', stream: prefix === LOG_PREFIXES[0] ? 'stdout' : 'stderr', text: content };
  }
  if (!text.startsWith(DONE_PREFIX)) return undefined;
  const content = literalContent(text, DONE_PREFIX.length);
  return content === undefined ? undefined : { type: 'done', value: content };
}

function literalContent(text: string, start: number): string | undefined {
  const content = text.slice(start, text.length - SUFFIX.length);
  return NOT_LITERAL.test(content) ? undefined : content;
}
