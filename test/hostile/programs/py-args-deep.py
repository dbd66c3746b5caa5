# about: a 10 000-deep argument crosses both ways
# expect: success
# value: [10000,"leaf"]
v = 'leaf'
for _ in range(10_000):
    v = [v]
back = await tools.echo(v)
d = 0
while isinstance(back, list):
    back = back[0]
    d += 1
return [d, back]
