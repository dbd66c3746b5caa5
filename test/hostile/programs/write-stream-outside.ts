// about: writes outside with a write stream and fs.promises
// expect: success
// must-not: file-created
const fs = await import('node:fs');
const out: string[] = [];
try { await fs.promises.writeFile('{{OUTSIDE_DIR}}/p', 'x'); out.push('promises: written'); } catch { out.push('promises: denied'); }
await new Promise<void>((resolve) => {
  try {
    const s = fs.createWriteStream('{{OUTSIDE_DIR}}/s');
    s.on('error', () => { out.push('stream: denied'); resolve(); });
    s.on('finish', () => { out.push('stream: written'); resolve(); });
    s.end('x');
  } catch { out.push('stream: denied'); resolve(); }
});
return out;
