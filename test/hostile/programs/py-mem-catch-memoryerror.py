# about: catches MemoryError and keeps allocating
# expect: exception|worker-exit|timeout
hoard = []
while True:
    try:
        hoard.append(bytearray(16 * 1024 * 1024))
    except MemoryError:
        hoard.clear()
