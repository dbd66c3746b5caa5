// Bindings for examples/mcp/everything.ptcnb: the `ev` namespace is the published reference server
// @modelcontextprotocol/server-everything (a dev dependency of this repo), started over stdio from node_modules.
// Its tools become `ev.*` functions with the types they really return: structured content where the tool declares an
// output schema, MCP content items (text, images, resource links…) otherwise, or a string where this module says so.
import { defineBindings } from 'ptc-playground/bindings';

export default defineBindings({
  ev: {
    errorClass: { name: 'EverythingError', memberNameProperty: 'tool' },
    mcp: { command: 'node', args: ['../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'] },
    // adds ev.list_resources() and ev.read_resource({ uri }): a resource link a tool returns can be followed
    resources: true,
    // only the tools this notebook needs (the server has a dozen more)
    include: ['echo', 'get-structured-content', 'get-tiny-image', 'get-resource-links', 'trigger-long-running-operation'],
    functions: {
      // echo answers one text item: declared as a plain string
      echo: { result: 'text' },
      // 3 s of work against a 1 s deadline: its progress reports keep it alive (up to maxTotalTimeoutMs in all)
      'trigger-long-running-operation': { timeoutMs: 1_000, maxTotalTimeoutMs: 20_000 },
    },
  },
});
