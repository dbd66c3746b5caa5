// `npm run package` puts the TS server plugin where VS Code's TypeScript extension looks for it:
// extension/node_modules/<name>/ inside the VSIX, every other entry unchanged.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Entry {
  name: string;
  data: Buffer;
  mode: number | undefined;
}
interface VsixTsPlugin {
  addTsPlugin(vsix: string, name: string, from?: string): Promise<string[]>;
  readEntries(file: string): Promise<Entry[]>;
  writeEntries(file: string, entries: Entry[]): Promise<void>;
}

const script = path.resolve(import.meta.dirname, '../../scripts/vscode-e2e/vsix-ts-plugin.mjs');

describe('addTsPlugin', () => {
  let tmp: string;
  let z: VsixTsPlugin;
  beforeAll(async () => {
    z = (await import(pathToFileURL(script).href)) as VsixTsPlugin;
    tmp = await mkdtemp(path.join(os.tmpdir(), 'ptc-vsix-plugin-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('adds the package under extension/node_modules and the .ts content type, keeping every entry', async () => {
    const vsix = path.join(tmp, 'x.vsix');
    await z.writeEntries(vsix, [
      {
        name: '[Content_Types].xml',
        data: Buffer.from('<Types><Default Extension=".js" ContentType="application/javascript"/></Types>'),
        mode: undefined,
      },
      { name: 'extension/package.json', data: Buffer.from('{"name":"x"}'), mode: 0o100644 },
    ]);
    const plugin = path.join(tmp, 'plugin');
    await mkdir(path.join(plugin, 'node_modules', '@types', 'node'), { recursive: true });
    await writeFile(path.join(plugin, 'index.js'), 'module.exports = () => ({});');
    await writeFile(path.join(plugin, 'node_modules', '@types', 'node', 'index.d.ts'), 'declare var x: number;');

    const added = await z.addTsPlugin(vsix, 'my-plugin', plugin);
    expect(added.sort()).toEqual([
      'node_modules/my-plugin/index.js',
      'node_modules/my-plugin/node_modules/@types/node/index.d.ts',
    ]);
    const packed = new Map((await z.readEntries(vsix)).map((e) => [e.name, e.data.toString('utf8')]));
    expect([...packed.keys()].sort()).toEqual([
      '[Content_Types].xml',
      'extension/node_modules/my-plugin/index.js',
      'extension/node_modules/my-plugin/node_modules/@types/node/index.d.ts',
      'extension/package.json',
    ]);
    expect(packed.get('extension/node_modules/my-plugin/index.js')).toBe('module.exports = () => ({});');
    expect(packed.get('[Content_Types].xml')).toContain('Extension=".ts"');
    expect(packed.get('[Content_Types].xml')?.match(/Extension="\.js"/g)).toHaveLength(1);
  });

  it('refuses a plugin folder without index.js (an unbuilt tree)', async () => {
    await expect(z.addTsPlugin(path.join(tmp, 'x.vsix'), 'my-plugin', path.join(tmp, 'missing'))).rejects.toThrow(
      /no index\.js/,
    );
  });
});
