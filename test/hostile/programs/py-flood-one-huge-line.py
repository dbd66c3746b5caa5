# about: one 5 MB print
# expect: output-limit
print('x' * 5_000_000)
return 'unreachable'
