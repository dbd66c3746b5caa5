# about: sys.exit(3) raises SystemExit
# expect: exception|worker-exit
import sys
sys.exit(3)
