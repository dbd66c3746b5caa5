"""Host-side fixtures of the hostile corpus that Node cannot build: a pty to inject into, SysV objects to read.

host-helper.py pty                          prints the slave's path, then one line per read until stdin closes:
                                            "out:<hex>" (written to the terminal), "in:<hex>" (its input queue)
host-helper.py sysv <shm-key> <msg-key> <secret>
                                            creates a root-only (0600) shm segment and message queue holding
                                            <secret>; prints "<shmid> <msqid>"
"""

import ctypes
import os
import pty
import select
import sys
import tty

IPC_CREAT = 0o1000
IPC_EXCL = 0o2000


def serve_pty():
    master, slave = pty.openpty()
    # raw: no echo and no line buffering, so injected input is readable byte for byte on the slave
    tty.setraw(slave)
    print(os.ttyname(slave), flush=True)
    while True:
        ready, _, _ = select.select([0, master, slave], [], [])
        if 0 in ready and not os.read(0, 64):
            return
        for fd, tag in ((master, "out"), (slave, "in")):
            if fd in ready:
                print(tag + ":" + os.read(fd, 65536).hex(), flush=True)


class Message(ctypes.Structure):
    _fields_ = [("mtype", ctypes.c_long), ("text", ctypes.c_char * 256)]


def plant_sysv(shm_key, msg_key, secret):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    libc.shmdt.argtypes = [ctypes.c_void_p]
    data = secret.encode()

    def check(result, what):
        if result == -1 or result is None:
            err = ctypes.get_errno()
            raise OSError(err, what + ": " + os.strerror(err))
        return result

    shmid = check(libc.shmget(shm_key, 4096, IPC_CREAT | IPC_EXCL | 0o600), "shmget")
    addr = check(libc.shmat(shmid, None, 0), "shmat")
    ctypes.memmove(addr, data, len(data))
    check(libc.shmdt(addr), "shmdt")
    msqid = check(libc.msgget(msg_key, IPC_CREAT | IPC_EXCL | 0o600), "msgget")
    check(libc.msgsnd(msqid, ctypes.byref(Message(1, data)), len(data), 0), "msgsnd")
    print(shmid, msqid, flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["pty"]:
        serve_pty()
    elif sys.argv[1:2] == ["sysv"] and len(sys.argv) == 5:
        plant_sysv(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit("usage: host-helper.py pty | sysv <shm-key> <msg-key> <secret>")
