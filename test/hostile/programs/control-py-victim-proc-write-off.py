# about: CONTROL: with the sandbox off, writing /proc/<victim>/oom_score_adj changes another host process
# expect: success
# must: victim-touched
# options: {"sandbox": "off"}
import time
open('/proc/{{VICTIM_PID}}/oom_score_adj', 'w').write('1000')
time.sleep(0.2)
return 'written'
