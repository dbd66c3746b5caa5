# about: a synchronous infinite loop
# expect: timeout
while True:
    pass
