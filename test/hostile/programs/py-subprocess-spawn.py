# about: runs a subprocess that would write outside
# expect: success|exception
# must-not: file-created
import subprocess
try:
    subprocess.run(['/bin/sh', '-c', 'touch {{OUTSIDE_DIR}}/spawned'], check=False, timeout=2)
    return 'ran'
except Exception as e:
    return 'denied: ' + type(e).__name__
