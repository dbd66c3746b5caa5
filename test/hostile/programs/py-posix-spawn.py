# about: posix_spawn and posix_spawnp (glibc's vfork-style clone plus exec) of its own interpreter, which prints a token only a new process could print
# expect: success|exception
# must-not: kernel-granted
import os, sys
out = []
code = "print('{{TOKEN}}'.upper())"
try:
    r, w = os.pipe()
    pid = os.posix_spawn(sys.executable, [sys.executable, '-S', '-c', code], {}, file_actions=[(os.POSIX_SPAWN_DUP2, w, 1)])
    os.close(w)
    os.waitpid(pid, 0)
    out.append('posix_spawn: ' + os.read(r, 100).decode())
except OSError as e:
    out.append(f'posix_spawn: errno {e.errno}')
try:
    pid = os.posix_spawnp('python3', ['python3', '-S', '-c', code], {})
    os.waitpid(pid, 0)
    out.append('posix_spawnp: ran')
except OSError as e:
    out.append(f'posix_spawnp: errno {e.errno}')
return out
