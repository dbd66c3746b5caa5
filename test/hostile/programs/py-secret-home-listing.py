# about: lists the home directory and ~/.ssh
# expect: success|exception
# must-not: secret-leaked
import os
out = []
for d in (os.path.expanduser('~'), '{{HOST_HOME}}', '{{HOST_HOME}}/.ssh'):
    try:
        out.append(sorted(os.listdir(d)))
    except Exception as e:
        out.append(type(e).__name__)
return out
