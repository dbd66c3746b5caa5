import { describe, expect, test } from 'vitest';
import type { BindingNamespace } from '../../../runtime/api.js';
import { observeNamespaces, type CallEvent } from '../../../runtime/bindings/observe.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';

describe('observeNamespaces', () => {
  test('reports the JSON size of the arguments, also for arguments nested 100 000 deep', async () => {
    const events: CallEvent[] = [];
    const tools: BindingNamespace = { global: 'tools', functions: { echo: async (args: JsonValue) => args } };
    const [observed] = observeNamespaces([tools], (event) => events.push(event));
    let deep: JsonValue = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    await observed!.functions.echo!({ a: 'x' });
    await observed!.functions.echo!(deep);
    expect(events.map((e) => e.argsChars)).toEqual([JSON.stringify({ a: 'x' }).length, 200_001]);
    expect(events.every((e) => e.ok)).toBe(true);
  });
});
