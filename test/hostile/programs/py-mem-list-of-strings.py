# about: appends 1 MB strings forever
# expect: exception|worker-exit
# message: MemoryError|exited|signal|code
hoard = []
while True:
    hoard.append('x' * 1_000_000 + str(len(hoard)))
