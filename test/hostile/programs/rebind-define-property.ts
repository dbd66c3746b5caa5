// about: breaks Object.defineProperty/create/keys; binding errors still arrive typed
// expect: success
// value: [true,"ToolCallError","fail","tool exploded"]
Object.defineProperty = (() => { throw new Error('defineProperty gone'); }) as typeof Object.defineProperty;
(Object as { create: unknown }).create = null;
Object.keys = () => { throw new Error('keys gone'); };
try {
  await tools.fail({});
  return 'no throw';
} catch (e) {
  const err = e as { name: string; toolName: string; message: string };
  return [e instanceof ToolCallError, err.name, err.toolName, err.message];
}
