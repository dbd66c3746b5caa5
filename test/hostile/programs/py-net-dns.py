# about: resolves public names
# expect: success
# value: "no resolution"
import socket
out = []
for host in ('example.com', 'registry.npmjs.org'):
    try:
        out.append(socket.getaddrinfo(host, 443)[0][4][0])
    except OSError:
        out.append(None)
return 'no resolution' if all(a is None for a in out) else out
