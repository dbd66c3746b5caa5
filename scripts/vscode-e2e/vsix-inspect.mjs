// Opens a packaged VSIX and finds what would tie it to one platform: native executables or libraries (by their magic
// bytes, whatever their name), Node addons (.node) and esbuild's per-platform binary packages (@esbuild/<platform>).
// Usage: node scripts/vscode-e2e/vsix-inspect.mjs <file.vsix>   (exit 1 with the offending entries)
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './paths.mjs';

// yauzl is what vsce itself reads and writes VSIX zips with
const yauzl = createRequire(path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'package.json'))('yauzl');

// ELF, PE (MZ), Mach-O 32/64 in both byte orders, and fat Mach-O
const MAGICS = [
  { name: 'ELF executable or library', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { name: 'PE executable or DLL', bytes: [0x4d, 0x5a] },
  { name: 'Mach-O binary', bytes: [0xfe, 0xed, 0xfa, 0xce] },
  { name: 'Mach-O binary', bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { name: 'Mach-O binary', bytes: [0xce, 0xfa, 0xed, 0xfe] },
  { name: 'Mach-O binary', bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { name: 'universal Mach-O binary', bytes: [0xca, 0xfe, 0xba, 0xbe] },
];

// Returns why an entry's name or first bytes make the VSIX platform-specific, or undefined.
export function platformSpecificReason(name, head) {
  if (/(^|\/)@esbuild\/[^/]+\//.test(name)) return "a package of esbuild's per-platform native binary";
  if (name.endsWith('.node')) return 'a native Node addon';
  if (/\.(exe|dll|so|dylib)$/.test(name)) return 'a native executable or library (by its extension)';
  const magic = MAGICS.find((m) => m.bytes.every((b, i) => head[i] === b));
  return magic ? `a native binary (${magic.name}, by its first bytes)` : undefined;
}

// Reads every entry's name, size and first bytes; returns { entries: [{ name, bytes, head }], manifest, problems },
// where manifest is the text of extension.vsixmanifest (a platform-specific VSIX names its TargetPlatform there).
export function inspectVsix(vsix) {
  return new Promise((resolve, reject) => {
    yauzl.open(vsix, { lazyEntries: true, autoClose: true }, (openError, zip) => {
      if (openError) return reject(openError);
      const entries = [];
      const problems = [];
      let manifest = '';
      zip.on('error', reject);
      zip.on('end', () => {
        if (/TargetPlatform=/.test(manifest)) problems.push('extension.vsixmanifest: names a target platform');
        resolve({ entries, manifest, problems });
      });
      zip.on('entry', (entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks = [];
          const whole = entry.fileName === 'extension.vsixmanifest';
          let have = 0;
          stream.on('data', (chunk) => {
            if (whole || have < 8) chunks.push(chunk);
            have += chunk.length;
          });
          stream.on('error', reject);
          stream.on('end', () => {
            const head = Buffer.concat(chunks).subarray(0, 8);
            if (whole) manifest = Buffer.concat(chunks).toString('utf8');
            entries.push({ name: entry.fileName, bytes: entry.uncompressedSize, head });
            const reason = platformSpecificReason(entry.fileName, head);
            if (reason) problems.push(`${entry.fileName}: ${reason}`);
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { entries, problems } = await inspectVsix(path.resolve(process.argv[2] ?? ''));
  if (problems.length > 0) {
    process.stderr.write(`${problems.length} platform-specific entr(ies):\n  ${problems.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`${entries.length} entries, none platform-specific\n`);
}
