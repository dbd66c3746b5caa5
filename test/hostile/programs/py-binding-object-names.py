# about: __proto__, constructor and my-tool are ordinary bindings
# expect: success
# value: ["proto-fn","constructor-fn","dashed"]
return [await tools['__proto__']({}), await tools.constructor({}), await tools['my-tool']({})]
