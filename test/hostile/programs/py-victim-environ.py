# about: reads the environment of another host process by pid, then of every process it can see
# expect: success|exception
# must-not: secret-leaked
import os
out = []
for pid in ['{{VICTIM_PID}}'] + [p for p in os.listdir('/proc') if p.isdigit()]:
    try:
        out.append(open(f'/proc/{pid}/environ', 'rb').read().decode('latin1'))
    except OSError as e:
        out.append(f'{pid}: {e.errno}')
return out
