# about: CONTROL: with the sandbox off, chmod and chown of the harness's device node succeed
# expect: success
# must: device-changed
# requires: root
# options: {"sandbox": "off"}
import os
os.chmod('{{DEVICE_NODE}}', 0o666)
os.chown('{{DEVICE_NODE}}', 65534, 65534)
return 'changed'
