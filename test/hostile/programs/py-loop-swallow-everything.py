# about: a loop that swallows every exception, KeyboardInterrupt and SystemExit included
# expect: timeout
while True:
    try:
        while True:
            pass
    except BaseException:
        continue
