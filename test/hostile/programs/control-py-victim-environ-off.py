# about: CONTROL: with the sandbox off, another host process's environment is readable through /proc
# expect: success
# must: secret-leaked
# options: {"sandbox": "off"}
return open('/proc/{{VICTIM_PID}}/environ', 'rb').read().decode('latin1')
