import { LIMITS } from '../../contract/limits.js';
import type { McpServerConfig } from '../module-format.js';
import type { ServerProcessTransport } from './mcp-server.js';
import { resolveCommand } from './resolve-command.js';
import { ServerStdioTransport } from './stdio-transport.js';

// How a stdio MCP server starts where there are processes (the bindings host): its command found on PATH or in its
// folder, then run in a process group of its own. The protocol (mcp-server.ts) takes this as an option, so the
// browser's build has no process code in it. Throws when the command cannot be found.
export function startStdioServer(config: McpServerConfig): ServerProcessTransport {
  return new ServerStdioTransport({
    command: resolveCommand(config.command ?? '', config.cwd, config.env),
    args: config.args ?? [],
    env: config.env,
    cwd: config.cwd ?? process.cwd(),
    // one result may be as large as a run's output may be, plus its JSON-RPC envelope
    maxMessageBytes: LIMITS.maxFrameBytes,
  });
}
