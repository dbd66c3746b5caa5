import { describe, expect, test } from 'vitest';
import { planSandbox } from '../../../runtime/sandbox/plan.js';
import type { SandboxCapabilities } from '../../../runtime/sandbox/probe.js';

const linux: SandboxCapabilities = { platform: 'linux', namespacePrefix: ['/usr/bin/unshare', '--net'], userNamespace: false, unsharePath: '/usr/bin/unshare' };
const bare: SandboxCapabilities = { platform: 'darwin', namespacePrefix: undefined, userNamespace: false, unsharePath: undefined };
const layer = { mechanism: 'node-permission-model' };

describe('sandbox plan', () => {
  test('all layers present is full enforcement with every mechanism named', () => {
    const plan = planSandbox('required', linux, { filesystem: layer, childProcess: layer });
    expect(plan.ok).toBe(true);
    expect(plan.report).toEqual({
      network: 'denied',
      filesystem: 'denied',
      childProcess: 'denied',
      enforcement: 'full',
      mechanisms: ['network-namespace', 'node-permission-model'],
    });
  });

  test('a missing layer is partial under best-effort and sandbox-unavailable under required', () => {
    expect(planSandbox('best-effort', bare, { filesystem: layer, childProcess: layer }).report).toMatchObject({ network: 'allowed', enforcement: 'partial' });
    const required = planSandbox('required', bare, { filesystem: layer, childProcess: layer });
    expect(required.ok).toBe(false);
    if (!required.ok) expect(required.message).toMatch(/network/);
  });

  test('no layer at all is enforcement none', () => {
    expect(planSandbox('best-effort', bare, { filesystem: undefined, childProcess: undefined }).report.enforcement).toBe('none');
  });

  test('off reports everything allowed', () => {
    expect(planSandbox('off', linux, { filesystem: layer, childProcess: layer }).report).toMatchObject({
      network: 'allowed',
      filesystem: 'allowed',
      childProcess: 'allowed',
      enforcement: 'none',
    });
  });
});
