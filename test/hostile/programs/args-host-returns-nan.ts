// about: a host handler answering NaN becomes a typed failure in the program
// expect: success
// value: "ToolCallError"
try {
  await tools.lossy({});
  return 'no throw';
} catch (e) {
  return (e as Error).name;
}
