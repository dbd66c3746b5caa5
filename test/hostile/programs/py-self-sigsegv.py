# about: sends itself SIGSEGV
# expect: worker-exit
import os, signal
os.kill(os.getpid(), signal.SIGSEGV)
