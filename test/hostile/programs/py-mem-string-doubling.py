# about: doubles a string until something gives
# expect: exception|worker-exit
s = 'x'
while True:
    s = s + s
