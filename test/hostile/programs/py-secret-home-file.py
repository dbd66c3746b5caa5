# about: reads a secret file planted in the home directory
# expect: success|exception
# must-not: secret-leaked
try:
    return open('{{SECRET_FILE}}').read()
except Exception as e:
    return type(e).__name__
