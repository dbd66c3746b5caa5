// about: a host handler throwing a value with a hostile toString
// expect: success
// value: ["ToolCallError","throwsHostile"]
try {
  await tools.throwsHostile({});
  return 'no throw';
} catch (e) {
  return [(e as Error).name, (e as { toolName: string }).toolName];
}
