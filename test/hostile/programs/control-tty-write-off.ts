// about: CONTROL: with the sandbox off, escape sequences written to a host pty reach the terminal
// expect: success
// must: tty-injected
// requires: host-python
// options: {"sandbox": "off"}
const fs = await import('node:fs');
fs.writeFileSync('{{PTY_PATH}}', '\x1b]52;c;{{TOKEN}}\x07\x1b]0;{{TOKEN}}\x07');
return 'written';
