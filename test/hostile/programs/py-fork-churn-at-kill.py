# about: keeps its cgroup repopulated through the kill: threads fork children without pause (each touching memory pages, so its death takes a while) right through the return, so the teardown's kill of the cgroup's members and its removal meet new members and dying ones (the removal is retried while the host waits on it); the result must still arrive and nothing may outlive the run
# expect: success
# value: "returned"
import os, threading
def churn():
    while True:
        try:
            pid = os.fork()
        except OSError:
            continue
        if pid == 0:
            try:
                bytearray(8 << 20)
            finally:
                os._exit(0)
        try:
            os.waitpid(pid, os.WNOHANG)
        except OSError:
            pass
for _ in range(4):
    try:
        threading.Thread(target=churn, daemon=True).start()
    except RuntimeError:
        break
return "returned"
