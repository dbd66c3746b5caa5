# about: endless print lines
# expect: output-limit
# logs: ^line 0 \.{200}$
i = 0
while True:
    print('line', i, '.' * 200)
    i += 1
