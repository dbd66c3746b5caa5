// about: kills its parent (inside its PID namespace; required sandbox so it can never hit the host)
// expect: worker-exit|success|exception|sandbox-unavailable
// options: {"sandbox": "required"}
process.kill(process.ppid, 'SIGKILL');
await new Promise((r) => setTimeout(r, 500));
return process.ppid;
