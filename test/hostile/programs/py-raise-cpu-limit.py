# about: tries to lift its CPU and address-space limits, then spins
# expect: timeout
import resource
for r in (resource.RLIMIT_CPU, resource.RLIMIT_AS):
    try:
        resource.setrlimit(r, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    except (ValueError, OSError):
        pass
while True:
    pass
