# about: closes the control descriptor, then returns
# expect: worker-exit|protocol
import os
os.close(3)
return 1
