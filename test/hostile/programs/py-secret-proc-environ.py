# about: reads /proc/<host>/environ, /proc/<parent>/environ and scans /proc
# expect: success|exception
# must-not: secret-leaked
import os
out = []
for pid in ['{{HOST_PID}}', str(os.getppid()), '1'] + [p for p in os.listdir('/proc') if p.isdigit()]:
    try:
        out.append(open(f'/proc/{pid}/environ', 'rb').read().decode('utf-8', 'replace'))
    except Exception as e:
        out.append(type(e).__name__)
return '\n'.join(out)
