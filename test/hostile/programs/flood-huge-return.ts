// about: a 2 MB string as the completion
// expect: output-limit
return 'x'.repeat(2_000_000);
