# about: CONTROL: with the sandbox off, posix_spawn of the interpreter runs a new process that prints the token
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import os, sys
r, w = os.pipe()
pid = os.posix_spawn(sys.executable, [sys.executable, '-S', '-c', "print('{{TOKEN}}'.upper())"], {}, file_actions=[(os.POSIX_SPAWN_DUP2, w, 1)])
os.close(w)
os.waitpid(pid, 0)
return os.read(r, 100).decode()
