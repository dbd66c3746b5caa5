# about: CONTROL: with the sandbox off, chmod and chown of the harness's device node succeed, and the host's kernel witness sees the node change
# expect: success
# must: device-changed
# requires: root
# options: {"sandbox": "off"}
import os
await probe.kernelLook()
os.chmod('{{DEVICE_NODE}}', 0o666)
os.chown('{{DEVICE_NODE}}', 65534, 65534)
await probe.kernelLook()
return 'changed'
