# about: host identity: the kernel command line and the boot id name the machine and tell a program nothing it needs
# expect: success|exception
# must-not: kernel-granted
seen = []
for path in ('/proc/cmdline', '/proc/sys/kernel/random/boot_id'):
    try:
        if open(path).read().strip():
            seen.append(path)
    except OSError:
        pass
return f'readable: {seen} ' + ('{{TOKEN}}'.upper() if seen else '')
