# about: speaks the other backend's wire on the CPython runner's channel: a Node child's length-prefixed done frame
# about: (4-byte big-endian length, then the JSON, no newline), then the valueless done only a Node child may send,
# about: then a newline, so the line channel sees the header's bytes glued to the JSON
# expect: protocol
import json
import os
import struct

body = json.dumps({"type": "done", "value": "forged via node framing"}).encode()
os.write(3, struct.pack(">I", len(body)) + body)
os.write(3, json.dumps({"type": "done"}).encode())
os.write(3, b"\n")
while True:
    pass
