# about: CONTROL: with the sandbox off, the kernel command line and the boot id are readable
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
seen = [p for p in ('/proc/cmdline', '/proc/sys/kernel/random/boot_id') if open(p).read().strip()]
return f'readable: {seen} ' + ('{{TOKEN}}'.upper() if len(seen) == 2 else '')
