// about: CONTROL: with the sandbox off, chmod and chown of the harness's device node succeed
// expect: success
// must: device-changed
// requires: root
// options: {"sandbox": "off"}
const fs = await import('node:fs');
fs.chmodSync('{{DEVICE_NODE}}', 0o666);
fs.chownSync('{{DEVICE_NODE}}', 65534, 65534);
return 'changed';
