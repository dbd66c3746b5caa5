// about: returns 200 000 objects (over the 1 MB cap)
// expect: output-limit
return Array.from({ length: 200_000 }, (_, i) => ({ i, s: 'abcdefgh' }));
