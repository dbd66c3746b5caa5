# about: an interval timer's SIGALRM handler fires every 200 µs from the program's first line through the runner's settlement (the value's encoding, the streams' flush, the done frame), so it interrupts the runner mid-frame: each firing writes a done frame of its own to every descriptor from 3 to 63, prints, and every tenth one raises. What the program writes on its own channel is its own answer (a forged done is just another way to return); the host must end with exactly one well-formed outcome (a value, or protocol for interleaved frames), never hang or crash, and leave nothing behind
# expect: success|exception|worker-exit|protocol
import os, signal
forged = b'{"type":"done","value":"forged by the alarm handler"}\n'
fired = [0]
def on_alarm(signum, frame):
    fired[0] += 1
    for fd in range(3, 64):
        try:
            os.write(fd, forged)
        except OSError:
            pass
    print("alarm", fired[0])
    if fired[0] % 10 == 0:
        raise RuntimeError("raised from the alarm handler")
signal.signal(signal.SIGALRM, on_alarm)
signal.setitimer(signal.ITIMER_REAL, 0.0002, 0.0002)
# a large value keeps the runner encoding while the timer keeps firing
return {"rows": [{"i": i, "text": "x" * 64} for i in range(20000)], "fired": fired[0]}
