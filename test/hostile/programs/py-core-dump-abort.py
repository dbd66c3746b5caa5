# about: raises its core limit (to unlimited, or soft to hard), then os.abort(): no core may land in the host working directory (no control: the runner sets RLIMIT_CORE to 0 even with the sandbox off)
# expect: worker-exit
# must-not: core-dumped, file-created
import os, resource
for limits in ((resource.RLIM_INFINITY, resource.RLIM_INFINITY), (resource.getrlimit(resource.RLIMIT_CORE)[1],) * 2):
    try:
        resource.setrlimit(resource.RLIMIT_CORE, limits)
        break
    except (ValueError, OSError):
        pass
os.abort()
