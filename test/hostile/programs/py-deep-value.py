# about: a 10 000-deep list crosses as the completion value
# expect: success
v = []
for _ in range(10_000):
    v = [v]
return v
