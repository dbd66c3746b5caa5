# about: probes __class__, __dict__ and __getattr__ on the namespace
# expect: success|exception
out = []
for name in ('__class__', '__dict__', '__getattr__', '__init__', '__reduce__'):
    try:
        out.append(type(getattr(tools, name)).__name__)
    except Exception as e:
        out.append(type(e).__name__)
return out
