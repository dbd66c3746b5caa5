// The two frames written by hand around an encoded value parse as their schemas, and the value crosses losslessly.
import { describe, expect, test } from 'vitest';
import {
  answerFrameText,
  callFrameText,
  FromBindingsWorkerSchema,
  ToBindingsWorkerSchema,
} from '../../../../runtime/bindings-host/web/worker-wire.js';
import { decodeLossless, encodeLossless } from '../../../../runtime/json/lossless.js';
import type { JsonValue } from '../../../../runtime/protocol/json-value.js';

const VALUE: JsonValue = {
  small: 0.1,
  large: 1e21,
  text: 'quote " and \u2028',
  list: [1, null, true],
};

function decoded(text: string): unknown {
  const result = decodeLossless(text);
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}

describe('worker-wire hand-written frames', () => {
  test('a call frame parses as the call schema, its names escaped and its arguments as encoded', () => {
    const args = encodeLossless(VALUE);
    if (!args.ok) throw new Error(args.reason);
    const text = callFrameText({ run: 3, id: 7, global: 'to"ols', name: 'se\narch' }, args.text);
    const frame = ToBindingsWorkerSchema.parse(decoded(text));
    expect(frame).toMatchObject({ type: 'call', run: 3, id: 7, global: 'to"ols', name: 'se\narch' });
    const again = encodeLossless((frame as { args: JsonValue }).args);
    expect(again.ok && again.text).toBe(args.text);
  });

  test('an answer frame parses as the answer schema, its value as encoded', () => {
    const value = encodeLossless(VALUE);
    if (!value.ok) throw new Error(value.reason);
    const frame = FromBindingsWorkerSchema.parse(decoded(answerFrameText(2, 9, value.text)));
    expect(frame).toMatchObject({ type: 'answer', run: 2, id: 9 });
    const again = encodeLossless((frame as { value: JsonValue }).value);
    expect(again.ok && again.text).toBe(value.text);
  });
});
