// about: what its own process still holds: effective capabilities, no_new_privs unset, no seccomp filter, and a no-op setgroups (needs CAP_SETGID)
// expect: success|exception
// must-not: kernel-granted
const fs = await import('node:fs');
const GRANT = '{{TOKEN}}'.toUpperCase();
const out: string[] = [];
try {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const field = (name: string): string => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(status)?.[1] ?? '?';
  out.push(`CapEff ${field('CapEff')}` + (/^0+$/.test(field('CapEff')) ? '' : ' ' + GRANT));
  out.push(`NoNewPrivs ${field('NoNewPrivs')}` + (field('NoNewPrivs') === '0' ? ' ' + GRANT : ''));
  out.push(`Seccomp ${field('Seccomp')}` + (field('Seccomp') === '0' ? ' ' + GRANT : ''));
} catch (e) {
  out.push('status: ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
}
try {
  process.setgroups?.(process.getgroups?.() ?? []);
  out.push('setgroups: done ' + GRANT);
} catch (e) {
  out.push('setgroups: ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
}
return out;
