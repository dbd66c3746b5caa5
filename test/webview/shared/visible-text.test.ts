import { describe, expect, test } from 'vitest';
import { segmentVisible } from '../../../webview/shared/visible-text.js';
import { utf8Length } from '../../../webview/shared/utf8-length.js';

describe('segmentVisible', () => {
  test('turns NUL, ESC and bidi overrides into visible markers and leaves tabs, newlines and RTL letters', () => {
    expect(segmentVisible('a\u0000b\u001b[0m\u202Ec\t\nمرحبا')).toEqual([
      { text: 'a' },
      { text: '␀', control: 0 },
      { text: 'b' },
      { text: '␛', control: 0x1b },
      { text: '[0m' },
      { text: 'U+202E', control: 0x202e },
      { text: 'c\t\nمرحبا' },
    ]);
  });

  test('plain text is one segment', () => {
    expect(segmentVisible('hello 👋')).toEqual([{ text: 'hello 👋' }]);
  });
});

describe('utf8Length', () => {
  test.each(['', 'ascii', 'é', '€', '😀', 'a\ud800b', 'مرحبا 👩‍💻'])('agrees with TextEncoder for %j', (text) => {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});
