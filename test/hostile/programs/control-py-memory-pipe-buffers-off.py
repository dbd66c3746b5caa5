# about: CONTROL: with the sandbox off, a root program grows 480 pipes to 1 MiB each and fills them past 256 MB (the attack is real)
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
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
