# about: writes kernel settings through /proc/sys (kernel.core_pattern and kernel.hostname, each set to the value it has, so even a success changes nothing)
# expect: success|exception
# must-not: kernel-granted
out = []
for path in ('/proc/sys/kernel/core_pattern', '/proc/sys/kernel/hostname'):
    try:
        value = open(path, 'rb').read()
        with open(path, 'wb') as f:
            f.write(value)
        out.append(path + ': written ' + '{{TOKEN}}'.upper())
    except OSError as e:
        out.append(f'{path}: errno {e.errno}')
return out
