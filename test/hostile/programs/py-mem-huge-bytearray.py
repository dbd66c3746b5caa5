# about: asks for a 1 TB bytearray
# expect: exception
# message: MemoryError
return len(bytearray(2 ** 40))
