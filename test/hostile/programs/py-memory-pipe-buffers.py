# about: kernel memory through pipes: 480 pipes grown to 1 MiB each with F_SETPIPE_SZ and filled, aiming past 256 MB
# expect: success|exception
# must-not: kernel-granted
import fcntl, os
GRANT = "{{TOKEN}}".upper()
F_SETPIPE_SZ = 1031
pipes, queued, grown = [], 0, 0
chunk = b"x" * 65536
try:
    while len(pipes) < 480 and queued < (300 << 20):
        r, w = os.pipe()
        pipes.append((r, w))
        os.set_blocking(w, False)
        try:
            fcntl.fcntl(w, F_SETPIPE_SZ, 1 << 20)
            grown += 1
        except OSError:
            pass
        while True:
            try:
                queued += os.write(w, chunk)
            except BlockingIOError:
                break
except OSError as e:
    return f"stopped: {e}, {queued >> 20} MB queued"
return f"{len(pipes)} pipes, {grown} grown to 1 MiB, {queued >> 20} MB queued" + (f", {GRANT}" if queued > (256 << 20) else "")
