// about: invalid UTF-8 written straight to fd 1 and fd 2
// expect: success
// value: "ok"
// logs: �
const fs = await import('node:fs');
fs.writeSync(1, Buffer.from([0xff, 0xfe, 0x41, 0x0a]));
fs.writeSync(2, Buffer.from([0xc3, 0x28, 0xed, 0xa0, 0x80, 0x0a]));
return 'ok';
