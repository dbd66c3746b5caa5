# about: a 5 MB argument and reply
# expect: success
# value: 5000000
s = await tools.echo('x' * 5_000_000)
return len(s)
