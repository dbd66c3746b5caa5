// about: calls an undeclared binding
// expect: exception
// message: not a function
return await (tools as unknown as Record<string, () => Promise<unknown>>).rmrf();
