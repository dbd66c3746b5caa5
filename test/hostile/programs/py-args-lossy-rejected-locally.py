# about: NaN, inf, -0.0, int keys, sets, objects and unsafe ints are rejected before any call
# expect: success
# value: ["rejected","rejected","rejected","rejected","rejected","rejected","rejected"]
# calls: 0
out = []
for v in (float('nan'), float('inf'), -0.0, {1: 2}, {1, 2}, object(), 2 ** 53 + 1):
    try:
        await tools.echo(v)
        out.append('sent')
    except Exception:
        out.append('rejected')
return out
