// about: breaks Function.prototype.call/apply/bind
// expect: success
// value: 7
const sum = tools.add({ a: 2, b: 5 });
Function.prototype.call = function () { throw new Error('call gone'); };
Function.prototype.apply = function () { throw new Error('apply gone'); };
Function.prototype.bind = function () { throw new Error('bind gone'); };
return await sum;
