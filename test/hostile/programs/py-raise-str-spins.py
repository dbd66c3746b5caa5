# about: an exception whose __str__ never returns
# expect: timeout|exception
class E(Exception):
    def __str__(self):
        while True:
            pass
raise E()
