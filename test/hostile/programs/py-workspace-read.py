# about: reads the workspace the host runs in (a secret file is planted under it) and walks it
# expect: success|exception
# must-not: secret-leaked
import os
out = []
try:
    out.append(open('{{WORKSPACE_SECRET}}').read())
except OSError as e:
    out.append(f'secret: {e.errno}')
try:
    for name in os.listdir('{{WORKSPACE}}/.cache'):
        if name.startswith('ptc-hostile-workspace-secret-'):
            out.append(open('{{WORKSPACE}}/.cache/' + name).read())
except OSError as e:
    out.append(f'walk: {e.errno}')
return out
