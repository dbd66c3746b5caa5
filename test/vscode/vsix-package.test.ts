// `npm run package` for real: one universal VSIX (no target platform) whose zip holds no native executable, no .node
// addon and no @esbuild/<platform> package, yet carries esbuild-wasm for bindings modules.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Entry {
  name: string;
  bytes: number;
  head: Buffer;
}
interface Inspection {
  inspectVsix(vsix: string): Promise<{ entries: Entry[]; manifest: string; problems: string[] }>;
  platformSpecificReason(name: string, head: Buffer): string | undefined;
}

const scripts = path.resolve(import.meta.dirname, '../../scripts/vscode-e2e');
const load = async <T>(name: string): Promise<T> => (await import(pathToFileURL(path.join(scripts, name)).href)) as T;

let tmp: string;
let inspection: Inspection;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ptc-vsix-test-'));
  inspection = await load<Inspection>('vsix-inspect.mjs');
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('platform-specific entries', () => {
  it('are found by name and by their first bytes, whatever the file is called', () => {
    const text = Buffer.from('#!/usr/bin/env node\n');
    expect(
      inspection.platformSpecificReason('extension/dist/node_modules/esbuild-wasm/bin/esbuild', text),
    ).toBeUndefined();
    expect(
      inspection.platformSpecificReason('extension/dist/node_modules/@esbuild/linux-x64/package.json', text),
    ).toMatch(/per-platform/);
    expect(inspection.platformSpecificReason('extension/dist/addon.node', text)).toMatch(/Node addon/);
    expect(
      inspection.platformSpecificReason('extension/dist/helper', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1])),
    ).toMatch(/ELF/);
    expect(inspection.platformSpecificReason('extension/dist/helper.txt', Buffer.from('MZ\x90\x00'))).toMatch(/PE/);
    expect(inspection.platformSpecificReason('extension/dist/helper', Buffer.from([0xcf, 0xfa, 0xed, 0xfe]))).toMatch(
      /Mach-O/,
    );
    // WebAssembly is platform-independent
    expect(
      inspection.platformSpecificReason('extension/dist/x.wasm', Buffer.from([0x00, 0x61, 0x73, 0x6d])),
    ).toBeUndefined();
  });
});

// The real `npm run package` is not run here: it rebuilds dist/ in production mode while other suites run programs
// from dist/. It runs in `npm run test:vscode` (.ci/run), and package.mjs fails it when inspectVsix finds a native
// binary, a .node addon, an @esbuild/ package or a target platform, and vsix-contents.mjs when esbuild-wasm is missing.
