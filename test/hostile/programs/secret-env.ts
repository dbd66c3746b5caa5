// about: sees an empty process.env
// expect: success
// value: [0,null,null]
// must-not: secret-leaked
return [Object.keys(process.env).length, process.env.PTC_HOSTILE_ENV_SECRET ?? null, process.env.HOME ?? null];
