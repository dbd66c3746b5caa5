// about: resolves public and local names
// expect: success
// value: "no resolution"
const dns = await import('node:dns');
const out: string[] = [];
for (const host of ['example.com', 'registry.npmjs.org']) {
  try { const r = await dns.promises.lookup(host); out.push(host + ' ' + r.address); } catch (e) { out.push(host + ' failed ' + (e as NodeJS.ErrnoException).code); }
}
return out.every((line) => line.includes('failed')) ? 'no resolution' : out;
