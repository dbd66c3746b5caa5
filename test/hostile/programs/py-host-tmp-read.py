# about: lists the host's /tmp and reads what it finds there (a root-only secret file is planted in it)
# expect: success|exception
# must-not: secret-leaked
import os
out = []
def read(path):
    try:
        out.append(open(path).read(200))
    except OSError as e:
        out.append(f'{path}: {e.errno}')
read('{{HOST_TMP_SECRET}}')
try:
    for name in os.listdir('/tmp'):
        if name.startswith('ptc-hostile-tmp-secret-'):
            read('/tmp/' + name)
except OSError as e:
    out.append(f'/tmp: {e.errno}')
return out
