# about: NUL characters in logs and value
# expect: success
# value: "a\u0000b"
print('\0' * 1000)
return 'a\0b'
