// about: fetch() to the loopback listener
// expect: success
// value: "failed"
// must-not: tcp-received
try {
  await fetch('http://127.0.0.1:{{TCP_PORT}}/');
  return 'fetched';
} catch (e) {
  return 'failed';
}
