// about: os.setPriority(0, -20): raising its own scheduling priority must be refused
// expect: success|exception
// must-not: kernel-granted
const os = await import('node:os');
const GRANT = '{{TOKEN}}'.toUpperCase();
const out: string[] = [];
for (const nice of [-20, -5, -1]) {
  try {
    os.setPriority(0, nice);
    const now = os.getPriority(0);
    out.push(`${nice}: now ${now}`);
    if (now < 0) out.push('raised ' + GRANT);
  } catch (e) {
    out.push(`${nice}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}
return out;
