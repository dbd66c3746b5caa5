import { afterAll, describe, expect, test } from 'vitest';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';
import { judgeCgroup, judgeProbe, plantSecret, probeProgram, type ProbeSight } from '../../../runtime/sandbox/proof.js';
import { sandboxHost } from '../../../runtime/sandbox/probe.js';
import { run } from '../../helpers/runtime.js';

// The host's reading of a real probe: accepted as it comes from the sandbox, refused as soon as one proven fact is
// not what the sandbox guarantees (a judge that accepted anything would report layers nobody proved).
describe.runIf(process.platform === 'linux')('the sandbox proof', () => {
  const secret = plantSecret();
  afterAll(() => secret.remove());

  async function sight(): Promise<ProbeSight> {
    const r = await run('python', probeProgram('python', secret.file), { sandbox: 'required', memoryMb: 512 });
    expect(r.error).toBeUndefined();
    return r.value as unknown as ProbeSight;
  }
  const judge = async (value: ProbeSight) => judgeProbe(value as unknown as JsonValue, await sandboxHost(), []);

  test('a real probe passes, and each missing limit or a raised one is named', async () => {
    const real = await sight();
    expect(await judge(real)).toMatchObject({ ok: true });
    expect(real.refused['raise-task-limit']).toBe(true);
    const limits = (row: string, value: string): ProbeSight => ({
      ...real,
      limits: real.limits.replace(new RegExp(`^(${row})\\s+\\S+\\s+\\S+`, 'm'), `$1 ${value} ${value}`),
    });
    expect(await judge(limits('Max processes', 'unlimited'))).toEqual({
      ok: false,
      problem: 'tasks are not limited to 256',
    });
    expect(await judge(limits('Max processes', '257'))).toEqual({ ok: false, problem: 'tasks are not limited to 256' });
    expect(await judge(limits('Max core file size', 'unlimited'))).toEqual({
      ok: false,
      problem: 'core dumps are not off',
    });
    expect(await judge({ ...real, limits: '' })).toMatchObject({ ok: false });
    expect(await judge({ ...real, refused: { ...real.refused, 'raise-task-limit': false } })).toEqual({
      ok: false,
      problem: 'not refused: raise-task-limit',
    });
  });

  test('a descriptor the host leaves open, a pty, aio or inotify that the probe could use is named', async () => {
    const real = await sight();
    for (const name of ['inherited-descriptor', 'pty', 'aio', 'inotify', 'xattr']) {
      expect(real.refused[name], name).toBe(true);
      expect(await judge({ ...real, refused: { ...real.refused, [name]: false } })).toEqual({
        ok: false,
        problem: `not refused: ${name}`,
      });
    }
  });

  test("the cgroup counts only when the kernel holds the asked bound and charged the probe's interpreter to it", () => {
    const requested = 900 * 1024 * 1024;
    expect(judgeCgroup({ requested, limit: requested, peak: 30 * 1024 * 1024 })).toMatchObject({ ok: true });
    expect(judgeCgroup(undefined)).toEqual({ ok: false, problem: 'the probe ran without a cgroup' });
    expect(judgeCgroup({ requested, limit: 2 * requested, peak: 30 * 1024 * 1024 })).toMatchObject({ ok: false });
    // a cgroup nothing joined stays near zero
    expect(judgeCgroup({ requested, limit: requested, peak: 0 })).toEqual({
      ok: false,
      problem: 'the probe was not charged to its cgroup',
    });
    expect(judgeCgroup({ requested, limit: requested, peak: undefined })).toMatchObject({ ok: false });
  });

  test.runIf(process.getuid?.() === 0)(
    'on a root host, a program running as root or as nobody is not in the sandbox',
    async () => {
      const real = await sight();
      for (const uid of ['0', '65534'])
        expect(
          await judge({ ...real, status: real.status.replace(/^Uid:.*$/m, `Uid:\t${uid}\t${uid}\t${uid}\t${uid}`) }),
        ).toEqual({
          ok: false,
          problem: 'the program does not run as a sandbox uid',
        });
    },
  );
});
