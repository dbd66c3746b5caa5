// about: replaces Error.captureStackTrace and zeroes Error.stackTraceLimit before a binding failure
// expect: success
// value: [true,"fail","tool exploded"]
(Error as unknown as Record<string, unknown>).captureStackTrace = () => { throw new Error('captureStackTrace gone'); };
Error.stackTraceLimit = 0;
try {
  await tools.fail({});
  return 'no throw';
} catch (e) {
  const err = e as { toolName: string; message: string };
  return [e instanceof ToolCallError, err.toolName, err.message];
}
