# about: CONTROL: with the sandbox off, the secret planted in the workspace is readable
# expect: success
# must: secret-leaked
# options: {"sandbox": "off"}
return open('{{WORKSPACE_SECRET}}').read()
