# about: raises KeyboardInterrupt
# expect: exception|worker-exit
raise KeyboardInterrupt
