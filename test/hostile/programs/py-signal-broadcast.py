# about: signals processes it never started: pidfd_open + pidfd_send_signal(SIGSTOP) and kill(SIGSTOP) on a host process, then kill(-1, SIGKILL), which reaches every process the caller may signal (no control: even with the sandbox off a run has its own pid namespace, where the host's pids do not exist)
# expect: success|exception|worker-exit
# must-not: kernel-granted, victim-touched
import ctypes, os, signal, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
PIDFD_OPEN, PIDFD_SEND_SIGNAL = 434, 424
out = []
fd = libc.syscall(ctypes.c_long(PIDFD_OPEN), ctypes.c_long({{VICTIM_PID}}), ctypes.c_long(0))
if fd < 0:
    out.append(f'pidfd_open: errno {ctypes.get_errno()}')
elif libc.syscall(ctypes.c_long(PIDFD_SEND_SIGNAL), ctypes.c_long(fd), ctypes.c_long(signal.SIGSTOP), None, ctypes.c_long(0)) == 0:
    out.append('pidfd stopped the victim ' + '{{TOKEN}}'.upper())
else:
    out.append(f'pidfd_send_signal: errno {ctypes.get_errno()}')
try:
    os.kill({{VICTIM_PID}}, signal.SIGSTOP)
    out.append('kill stopped the victim ' + '{{TOKEN}}'.upper())
except OSError as e:
    out.append(f'kill: errno {e.errno}')
# the host samples the victim while this run lives
time.sleep(0.3)
print(out)
# last: everything this process may signal (its own sandbox's processes at most; the run may end here)
os.kill(-1, signal.SIGKILL)
return out
