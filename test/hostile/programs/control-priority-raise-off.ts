// about: CONTROL: with the sandbox off, os.setPriority(0, -20) raises the program's priority (root has CAP_SYS_NICE)
// expect: success
// must: kernel-granted
// requires: root
// options: {"sandbox": "off"}
const os = await import('node:os');
os.setPriority(0, -20);
return os.getPriority(0) < 0 ? 'raised ' + '{{TOKEN}}'.toUpperCase() : 'not raised';
