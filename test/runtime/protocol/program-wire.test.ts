import { describe, expect, test } from 'vitest';
import {
  DoneFrameSchema,
  LogFrameSchema,
  ReplyFrameSchema,
  replyText,
  shortcutStringFrame,
  type CallReply,
} from '../../../runtime/protocol/program-wire.js';

const big = (text: string): string => text.repeat(Math.ceil((70 * 1024) / text.length));

describe('shortcutStringFrame', () => {
  test.each([
    ['a stdout log line', `{"type":"log","stream":"stdout","text":"${big('abc é😀 ')}"}`],
    ['a stderr log line', `{"type":"log","stream":"stderr","text":"${big('x')}"}`],
    ['a completion returning a string', `{"type":"done","value":"${big('zz\u2028')}"}`],
  ])('reads %s exactly as JSON.parse does, as a frame its schema accepts', (_name, text) => {
    const frame = shortcutStringFrame(text);
    expect(frame).toEqual(JSON.parse(text));
    expect((frame?.type === 'log' ? LogFrameSchema : DoneFrameSchema).safeParse(frame).success).toBe(true);
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

// The reply frame's hand writer and its schema are one definition read two ways: every reply it writes parses.
describe('replyText', () => {
  const replies: [string, CallReply, Record<string, unknown>][] = [
    ['a value', { ok: true, valueText: '{"a":[1,"é\\u2028"]}' }, { ok: true, value: { a: [1, '\u00e9\u2028'] } }],
    ['null', { ok: true, valueText: 'null' }, { ok: true, value: null }],
    ['a failure', { ok: false, message: 'no such "city"\n' }, { ok: false, message: 'no such "city"\n' }],
    [
      'a failure with a code and data',
      { ok: false, message: 'rate limited', details: { code: -32000, data: { retryAfter: 3 } } },
      { ok: false, message: 'rate limited', code: -32000, data: { retryAfter: 3 } },
    ],
    [
      'a failure with a string code',
      { ok: false, message: 'x', details: { code: 'E1' } },
      { ok: false, message: 'x', code: 'E1' },
    ],
  ];

  test.each(replies)('writes %s as a frame the schema accepts', (_name, reply, expected) => {
    const parsed = ReplyFrameSchema.safeParse(JSON.parse(replyText(7, reply)));
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({ type: 'reply', id: 7, ...expected });
  });

  test.each(replies)('adds how long %s waited only when asked', (_name, reply, expected) => {
    expect(JSON.parse(replyText(7, reply, 1250))).toEqual({ type: 'reply', id: 7, ...expected, pausedMs: 1250 });
  });
});
