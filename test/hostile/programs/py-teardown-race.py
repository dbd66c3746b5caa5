# about: races the teardown, which since this session runs after the result: a thread keeps growing a deep directory chain and thousands of {{TOKEN}} files in its temp dir through the return, so the removal after the result meets a tree that moves and is deeper than PATH_MAX; nothing may survive the run or be left on the host
# expect: success
# value: "returned"
import os, threading
def grow():
    depth = 0
    path = "/tmp"
    while True:
        try:
            path = os.path.join(path, "d" * 200)
            os.mkdir(path)
            depth += 1
            for i in range(20):
                open(os.path.join(path, f"{{TOKEN}}-{depth}-{i}"), "w").close()
        except OSError:
            path = "/tmp"
threading.Thread(target=grow, daemon=True).start()
for i in range(2000):
    open(f"/tmp/{{TOKEN}}-flat-{i}", "w").close()
return "returned"
