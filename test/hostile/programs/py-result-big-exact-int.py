# about: returns 2**60 (exactly a double)
# expect: success
# value: 1152921504606846976
return 2 ** 60
