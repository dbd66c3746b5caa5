# about: hard-links the secret into its temp dir and reads it
# expect: success|exception
# must-not: secret-leaked
import os, tempfile
link = os.path.join(tempfile.gettempdir(), 'hard.txt')
try:
    os.link('{{SECRET_FILE}}', link)
    return open(link).read()
except Exception as e:
    return type(e).__name__
