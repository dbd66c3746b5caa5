# about: CONTROL: with the sandbox off, POSIX shared memory created with shm_open is in the host's /dev/shm
# expect: success
# must: data-on-host-disk
# options: {"sandbox": "off"}
import os, _posixshmem
fd = _posixshmem.shm_open('/ptc-{{TOKEN}}', os.O_CREAT | os.O_RDWR, 0o600)
os.ftruncate(fd, 1 << 20)
return await probe.hostLook({})
