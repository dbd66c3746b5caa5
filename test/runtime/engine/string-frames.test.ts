import { describe, expect, test } from 'vitest';
import { shortcutStringFrame } from '../../../runtime/engine/string-frames.js';

const big = (text: string): string => text.repeat(Math.ceil((70 * 1024) / text.length));

describe('shortcutStringFrame', () => {
  test.each([
    ['a stdout log line', `{"type":"log","stream":"stdout","text":"${big('abc é😀 ')}"}`],
    ['a stderr log line', `{"type":"log","stream":"stderr","text":"${big('x')}"}`],
    ['a completion returning a string', `{"type":"done","value":"${big('zz\u2028')}"}`],
  ])('reads %s exactly as JSON.parse does', (_name, text) => {
    expect(shortcutStringFrame(text)).toEqual(JSON.parse(text));
  });

  test.each([
    ['escapes in the text', `{"type":"log","stream":"stdout","text":"${big('a\\nb')}"}`],
    ['a quote that ends the string early', `{"type":"log","stream":"stdout","text":"${big('a')}","x":"y"}`],
    ['a raw control character', `{"type":"log","stream":"stdout","text":"${big('a\u0001')}"}`],
    ['another stream name', `{"type":"log","stream":"stdin","text":"${big('a')}"}`],
    ['a non-string value', `{"type":"done","value":[${big('1,')}1]}`],
    ['other spacing', `{"type": "done", "value": "${big('a')}"}`],
    ['a short frame', '{"type":"log","stream":"stdout","text":"short"}'],
  ])('leaves %s to the full parse', (_name, text) => {
    expect(shortcutStringFrame(text)).toBeUndefined();
  });
});
