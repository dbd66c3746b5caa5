# about: an infinite loop inside finally after a raise
# expect: timeout
try:
    raise ValueError('about to spin')
finally:
    while True:
        pass
