// about: CONTROL: with the sandbox off, node:trace_events leaves node_trace.*.log in the host working directory
// expect: success
// must: trace-written
// options: {"sandbox": "off"}
const te = await import('node:trace_events');
const tracing = te.createTracing({ categories: ['node.perf', 'v8', 'node.async_hooks'] });
tracing.enable();
await new Promise((r) => setTimeout(r, 300));
tracing.disable();
return te.getEnabledCategories() ?? 'disabled';
