// about: reaches another host process through its pid: renices it and rewrites its /proc/<pid>/oom_score_adj
// expect: success|exception
// must-not: victim-touched
const fs = await import('node:fs');
const os = await import('node:os');
const out: string[] = [];
const attempt = (name: string, fn: () => void): void => {
  try {
    fn();
    out.push(name + ': done');
  } catch (e) {
    out.push(name + ': ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
  }
};
attempt('renice', () => os.setPriority({{VICTIM_PID}}, 19));
attempt('oom_score_adj', () => fs.writeFileSync('/proc/{{VICTIM_PID}}/oom_score_adj', '1000'));
attempt('stop', () => process.kill({{VICTIM_PID}}, 'SIGSTOP'));
await new Promise((r) => setTimeout(r, 200));
return out;
