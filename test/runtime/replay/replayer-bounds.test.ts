import { describe, expect, test } from 'vitest';
import { KEPT_CALLS } from '../../../runtime/protocol/run-result.js';
import type { Cassette } from '../../../runtime/replay/cassette-format.js';
import { replayNamespaces } from '../../../runtime/replay/replayer.js';

const cassette: Cassette = {
  version: 1,
  calls: [
    { global: 'tools', name: 'echo', args: { n: -1 }, ok: true, value: 'recorded', durationMs: 1 },
    { global: 'tools', name: 'echo', args: { n: -2 }, ok: true, value: 'recorded', durationMs: 1 },
  ],
};

describe('replay of many unmatched calls', () => {
  test('lists the first KEPT_CALLS diverged calls, counts them all, and names an unused recorded call in each message', async () => {
    const replay = replayNamespaces(cassette, [{ global: 'tools', names: ['echo', 'other'] }]);
    const echo = replay.namespaces[0]!.functions.echo!;
    const total = KEPT_CALLS + 500;
    const messages: string[] = [];
    for (let n = 0; n < total; n++) await echo({ n }).catch((error: Error) => messages.push(error.message));
    expect(await echo({ n: -2 })).toBe('recorded');
    await replay.namespaces[0]!.functions.other!({}).catch((error: Error) => messages.push(error.message));
    const report = replay.report();
    expect(report.diverged).toHaveLength(KEPT_CALLS);
    expect(report.divergedTotal).toBe(total + 1);
    expect(report).toMatchObject({ matched: 1, unused: 1 });
    expect(messages[0]).toBe(
      'replay divergence: tools.echo({"n":0}) matches no unused recorded call (2 unused tools.echo call(s) recorded with other arguments, e.g. {"n":-1})',
    );
    expect(messages.at(-1)).toBe(
      'replay divergence: tools.other({}) matches no unused recorded call (the cassette has no tools.other call)',
    );
  });

  test('says when every recorded call of a binding is used, and lists all diverged calls when they are few', async () => {
    const replay = replayNamespaces(cassette, [{ global: 'tools', names: ['echo'] }]);
    const echo = replay.namespaces[0]!.functions.echo!;
    await echo({ n: -1 });
    await echo({ n: -2 });
    await expect(echo({ n: -1 })).rejects.toThrow('(every recorded tools.echo call is already used)');
    expect(replay.report()).toEqual({
      matched: 2,
      diverged: [{ global: 'tools', name: 'echo', args: { n: -1 } }],
      unused: 0,
    });
  });
});
