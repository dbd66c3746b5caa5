# about: a 3 000-link exception chain
# expect: exception
# message: ValueError
def chain(n):
    e = ValueError('root')
    for i in range(n):
        try:
            raise e
        except ValueError as inner:
            e = ValueError(f'link {i}')
            e.__cause__ = inner
    raise e
chain(3000)
