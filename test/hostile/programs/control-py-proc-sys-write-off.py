# about: CONTROL: with the sandbox off, root writes kernel.core_pattern through /proc/sys (the value it already has)
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
value = open('/proc/sys/kernel/core_pattern', 'rb').read()
with open('/proc/sys/kernel/core_pattern', 'wb') as f:
    f.write(value)
return 'written ' + '{{TOKEN}}'.upper()
