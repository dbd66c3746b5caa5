// about: tampers with the error class; rejections still carry the member name
// expect: success
// value: "fail"
(ToolCallError.prototype as unknown as Record<string, unknown>).toString = null;
Object.setPrototypeOf(ToolCallError.prototype, null);
try { await tools.fail({}); return 'no throw'; } catch (e) { return (e as { toolName: string }).toolName; }
