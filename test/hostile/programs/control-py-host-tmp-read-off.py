# about: CONTROL: with the sandbox off, the secret planted in the host's /tmp is readable
# expect: success
# must: secret-leaked
# options: {"sandbox": "off"}
return open('{{HOST_TMP_SECRET}}').read()
