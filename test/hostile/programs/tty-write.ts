// about: terminal injection from Node: opens a host pty and writes escape sequences (OSC 52 clipboard, window title) carrying the token
// expect: success|exception
// must-not: tty-injected
// requires: host-python
const fs = await import('node:fs');
try {
  fs.writeFileSync('{{PTY_PATH}}', '\x1b]52;c;{{TOKEN}}\x07\x1b]0;{{TOKEN}}\x07');
  return 'written';
} catch (e) {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}
