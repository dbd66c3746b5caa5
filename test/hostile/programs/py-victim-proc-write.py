# about: reaches another host process through its pid: renices it, rewrites its oom_score_adj, stops it
# expect: success|exception
# must-not: victim-touched
import os, signal, time
out = []
def attempt(name, fn):
    try:
        fn()
        out.append(name + ': done')
    except OSError as e:
        out.append(f'{name}: {e.errno}')
attempt('renice', lambda: os.setpriority(os.PRIO_PROCESS, {{VICTIM_PID}}, 19))
attempt('oom_score_adj', lambda: open('/proc/{{VICTIM_PID}}/oom_score_adj', 'w').write('1000'))
attempt('stop', lambda: os.kill({{VICTIM_PID}}, signal.SIGSTOP))
time.sleep(0.2)
return out
