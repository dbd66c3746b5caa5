// about: returns { a: undefined }
// expect: invalid-output
return { a: undefined };
