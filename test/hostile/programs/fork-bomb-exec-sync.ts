// about: execSync a shell fork bomb (denied)
// expect: exception
// message: denied|restricted|permission
const cp = await import('node:child_process');
return String(cp.execSync(':(){ :|:& };:'));
