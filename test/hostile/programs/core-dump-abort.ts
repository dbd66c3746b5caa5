// about: process.abort() on a host whose soft core limit lets processes dump core: no core may land in the host working directory
// expect: worker-exit
// must-not: core-dumped, file-created
process.abort();
