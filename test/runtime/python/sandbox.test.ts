import { describe, expect, test } from 'vitest';
import { isSandboxUid } from '../../../runtime/sandbox/bwrap.js';
import { run } from '../../helpers/runtime.js';

// What the Python sandbox's confined root looks like from inside; the shared denials are in test/runtime/parity.
describe.concurrent('Python sandbox (best-effort on Linux)', () => {
  test("homes, /root secrets, /tmp and the host's processes are out of sight; the system is read-only", async () => {
    const r = await run(
      'python',
      [
        'import os, sys',
        'out = {}',
        "out['pids'] = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())",
        "out['home'] = os.path.exists('/home')",
        "out['rootEntries'] = sorted(e for e in os.listdir('/root') if not sys.prefix.startswith('/root/' + e)) if os.path.isdir('/root') else []",
        "out['tmpEntries'] = [e for e in os.listdir('/tmp') if not __import__('tempfile').gettempdir().startswith('/tmp/' + e)]",
        'def attempt(name, action):',
        '    try:',
        '        action()',
        "        out[name] = 'allowed'",
        '    except OSError as e:',
        "        out[name] = 'denied'",
        "attempt('writeUsr', lambda: open('/usr/ptc-probe', 'w'))",
        "attempt('sysctl', lambda: open('/proc/sys/kernel/hostname', 'w').write('x'))",
        "attempt('mknod', lambda: os.mknod(os.path.join(__import__('tempfile').gettempdir(), 'dev'), 0o600 | 0o060000, os.makedev(8, 0)))",
        "attempt('fork', os.fork)",
        "attempt('exec', lambda: os.execv('/bin/sh', ['sh']))",
        'return out',
      ].join('\n'),
    );
    expect(r.error).toBeUndefined();
    const v = r.value as Record<string, unknown>;
    // the namespace's own init and the interpreter; the host's PIDs are not there
    expect((v.pids as number[]).length).toBeLessThanOrEqual(3);
    expect(v.home).toBe(false);
    expect(v.rootEntries).toEqual([]);
    expect(v.tmpEntries).toEqual([]);
    expect(v).toMatchObject({ writeUsr: 'denied', sysctl: 'denied', mknod: 'denied', fork: 'denied', exec: 'denied' });
  });

  test('the environment is empty even under sandbox off, and cwd is the requested one', async () => {
    const r = await run('python', 'import os\nreturn [dict(os.environ), os.getcwd()]', { sandbox: 'off', cwd: '/usr' });
    expect(r.value).toEqual([{}, '/usr']);
  });
});

describe.concurrent('Python sandbox: what the OS layer leaves the program', () => {
  test('an unprivileged uid, device nodes, /dev and /proc/sys unchangeable, no shells, no SysV IPC, a size-capped /tmp as cwd', async () => {
    const r = await run(
      'python',
      [
        'import os, ctypes, tempfile',
        'libc = ctypes.CDLL(None, use_errno=True)',
        'out = {"uid": os.getuid(), "cwd": os.getcwd(), "tmp": tempfile.gettempdir(), "shell": os.path.exists("/bin/sh") or os.path.exists("/usr/bin/sh")}',
        'def attempt(name, action):',
        '    try:',
        '        action()',
        '        out[name] = "allowed"',
        '    except OSError as e:',
        '        out[name] = "denied"',
        'attempt("chmodDevNull", lambda: os.chmod("/dev/null", 0o600))',
        'attempt("sysctl", lambda: os.close(os.open("/proc/sys/kernel/core_pattern", os.O_WRONLY)))',
        'attempt("hostname", lambda: __import__("socket").sethostname("x"))',
        "# even in the run's own IPC namespace: a segment's pages outlive every mapping, counted by no limit of the run",
        'shm = libc.shmget(0, 4096, 0o1600)',
        'attempt("devShm", lambda: open("/dev/shm/x", "w"))',
        'out["shm"] = "created" if shm >= 0 else "refused"',
        'out["hostSegments"] = open("/proc/sysvipc/shm").read().count("\\n") - 1',
        'def fill():',
        '    with open("big", "wb") as f:',
        '        for _ in range(40):',
        '            f.write(b"x" * (1 << 20))',
        'attempt("fillBeyondTmp", fill)',
        'return out',
      ].join('\n'),
      { tmpMb: 16 },
    );
    expect(r.error).toBeUndefined();
    // a root host gives each run a uid of its own from the sandbox range; others keep their own uid
    const uid = (r.value as { uid: number }).uid;
    if (process.getuid?.() === 0) expect(isSandboxUid(uid)).toBe(true);
    else expect(uid).toBe(process.getuid?.());
    expect(r.value).toEqual({
      uid,
      cwd: '/tmp',
      tmp: '/tmp',
      shell: false,
      chmodDevNull: 'denied',
      sysctl: 'denied',
      hostname: 'denied',
      devShm: 'denied',
      shm: 'refused',
      // the host's segments are not visible either (own IPC namespace)
      hostSegments: 0,
      fillBeyondTmp: 'denied',
    });
  });
});
