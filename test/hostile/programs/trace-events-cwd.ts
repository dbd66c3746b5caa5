// about: node:trace_events starts Node's tracing agent, which writes node_trace.*.log into the host working directory
// expect: success|exception
// must-not: trace-written, file-created
const out: string[] = [];
try {
  const te = await import('node:trace_events');
  const tracing = te.createTracing({ categories: ['node.perf', 'v8', 'node.async_hooks'] });
  tracing.enable();
  out.push('enabled: ' + te.getEnabledCategories());
  await new Promise((r) => setTimeout(r, 300));
  tracing.disable();
} catch (e) {
  out.push(String(e));
}
return out;
