# about: a line printed right before a non-yielding loop is kept
# expect: timeout
# logs: ^before the loop$
print('before the loop', flush=True)
while True:
    pass
