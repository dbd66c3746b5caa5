// about: changes device nodes: chmod/chown/write of a host device node, and a mode-preserving chmod/chown of /dev/null (any success is a device node the program could change)
// expect: success|exception
// must-not: device-changed, kernel-granted
const fs = await import('node:fs');
const GRANT = '{{TOKEN}}'.toUpperCase();
const out: string[] = [];
const attempt = (name: string, fn: () => void, granted = false): void => {
  try {
    fn();
    out.push(name + ': done' + (granted ? ' ' + GRANT : ''));
  } catch (e) {
    out.push(name + ': ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
  }
};
attempt('chmod host node', () => fs.chmodSync('{{DEVICE_NODE}}', 0o666));
attempt('chown host node', () => fs.chownSync('{{DEVICE_NODE}}', 65534, 65534));
attempt('write host node', () => fs.writeFileSync('{{DEVICE_NODE}}', 'x'));
// the same mode and owner again: refused by a read-only /dev, harmless if it is not
let st: import('node:fs').Stats | undefined;
attempt('stat /dev/null', () => (st = fs.statSync('/dev/null')));
if (st !== undefined) {
  const { mode, uid, gid } = st;
  attempt('chmod /dev/null', () => fs.chmodSync('/dev/null', mode & 0o7777), true);
  attempt('chown /dev/null', () => fs.chownSync('/dev/null', uid, gid), true);
}
return out;
