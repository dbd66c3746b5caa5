# about: CONTROL: with the sandbox off, os.nice(-5) raises the program's priority (root has CAP_SYS_NICE)
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import os
os.nice(-5)
return 'raised ' + '{{TOKEN}}'.upper() if os.getpriority(os.PRIO_PROCESS, 0) < 0 else 'not raised'
