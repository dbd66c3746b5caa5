# about: ignores SIGTERM/SIGINT, masks SIGXCPU, then spins
# expect: timeout
import signal
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGXCPU, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGXCPU, signal.SIGTERM})
while True:
    pass
