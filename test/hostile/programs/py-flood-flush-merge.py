# about: an unterminated flushed fragment merges with the next print
# expect: success
# value: null
# logs: ^ab$
print('a', end='', flush=True)
print('b')
return None
