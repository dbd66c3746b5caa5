// about: with the sandbox off, a double-forked daemon (nohup, setsid, &) is killed with the run
// expect: success
// value: "daemonized"
// options: {"sandbox": "off"}
const cp = await import('node:child_process');
cp.execSync("setsid sh -c 'nohup sleep 30 >/dev/null 2>&1 &' &");
await new Promise((r) => setTimeout(r, 200));
return 'daemonized';
