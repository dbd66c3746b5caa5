// about: leaves 100 calls in flight and returns
// expect: success
// value: "returned"
for (let i = 0; i < 100; i++) void tools.slow({ ms: 300 });
return 'returned';
