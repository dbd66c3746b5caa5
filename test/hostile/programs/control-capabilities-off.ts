// about: CONTROL: with the sandbox off, the program holds root's capabilities and a no-op setgroups succeeds
// expect: success
// must: kernel-granted
// requires: root
// options: {"sandbox": "off"}
process.setgroups?.(process.getgroups?.() ?? []);
return 'setgroups: done ' + '{{TOKEN}}'.toUpperCase();
