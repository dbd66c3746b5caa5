# about: CONTROL: with the sandbox off, the secret file is readable
# expect: success
# must: secret-leaked
# options: {"sandbox": "off"}
return open('{{SECRET_FILE}}').read()
