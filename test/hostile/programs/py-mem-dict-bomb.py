# about: a dict with millions of entries
# expect: exception|worker-exit|timeout
d = {}
i = 0
while True:
    d[i] = str(i)
    i += 1
