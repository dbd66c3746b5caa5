// about: asks for a single absurd ArrayBuffer
// expect: exception
// message: RangeError|allocation
return new ArrayBuffer(2 ** 52).byteLength;
