// about: CONTROL: with the sandbox off, writing /proc/<victim>/oom_score_adj changes another host process
// expect: success
// must: victim-touched
// options: {"sandbox": "off"}
const fs = await import('node:fs');
fs.writeFileSync('/proc/{{VICTIM_PID}}/oom_score_adj', '1000');
await new Promise((r) => setTimeout(r, 200));
return 'written';
