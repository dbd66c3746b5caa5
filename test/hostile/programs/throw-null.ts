// about: throws null
// expect: exception
throw null;
