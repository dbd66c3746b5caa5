// about: CONTROL: with the sandbox off, process.abort() leaves a core file in the host working directory
// expect: worker-exit
// must: core-dumped
// requires: core-in-cwd
// options: {"sandbox": "off"}
process.abort();
