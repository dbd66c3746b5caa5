import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { JsonValue } from '../../protocol/json-value.js';
import type { McpServerConfig } from '../module-format.js';
import { mapToolResult } from './map-result.js';

export interface McpTool {
  name: string;
  description: string | undefined;
  inputSchema: Record<string, unknown> | undefined;
  outputSchema: Record<string, unknown> | undefined;
}

const CONNECT_TIMEOUT_MS = 15_000;
const STDERR_TAIL_BYTES = 2_000;
// our per-call deadline governs; the SDK's own request timeout only backs it up
const SDK_REQUEST_TIMEOUT_MS = 2_147_000_000;

// Output schemas are checked by the bindings layer (reported, not fatal), so the SDK's own check passes everything.
const passThroughValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

function describeCommand(config: McpServerConfig): string {
  return [config.command, ...(config.args ?? [])].join(' ');
}

// One stdio MCP server kept alive for the session that loaded the bindings module; restarted if it dies.
export class McpServerSession {
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #stderrTail = '';
  #disposed = false;

  constructor(
    readonly label: string,
    readonly config: McpServerConfig,
  ) {}

  // Starts the server and lists its tools (every page); throws with the server's stderr tail on failure.
  async listTools(): Promise<McpTool[]> {
    const client = await this.#connected();
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: CONNECT_TIMEOUT_MS });
      for (const tool of page.tools) {
        tools.push({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema as Record<string, unknown> | undefined,
          outputSchema: tool.outputSchema as Record<string, unknown> | undefined,
        });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  async call(name: string, args: JsonValue, signal: AbortSignal): Promise<JsonValue> {
    const client = await this.#connected();
    const params = args === null ? { name } : { name, arguments: args as Record<string, unknown> };
    const result = await client.callTool(params, undefined, { signal, timeout: SDK_REQUEST_TIMEOUT_MS });
    const outcome = mapToolResult(result);
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.value;
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    this.#connecting = undefined;
    await client?.close().catch(() => undefined);
  }

  #connected(): Promise<Client> {
    if (this.#disposed) return Promise.reject(new Error(`MCP server of ${this.label} was stopped (bindings module disposed)`));
    if (this.#client !== undefined) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    const transport = new StdioClientTransport({
      command: this.config.command,
      ...(this.config.args === undefined ? {} : { args: this.config.args }),
      ...(this.config.env === undefined ? {} : { env: this.config.env }),
      ...(this.config.cwd === undefined ? {} : { cwd: this.config.cwd }),
      stderr: 'pipe',
    });
    this.#stderrTail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    const client = new Client({ name: 'ptc-playground', version: '0.1.0' }, { jsonSchemaValidator: passThroughValidator });
    client.onclose = () => {
      if (this.#client === client) this.#client = undefined;
    };
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      await client.close().catch(() => undefined);
      const tail = this.#stderrTail.trim();
      throw new Error(
        `MCP server of ${this.label} (${describeCommand(this.config)}) could not start: ${(error as Error).message}${tail.length > 0 ? `\nserver stderr:\n${tail}` : ''}`,
        { cause: error },
      );
    }
    if (this.#disposed) {
      await client.close().catch(() => undefined);
      throw new Error(`MCP server of ${this.label} was stopped (bindings module disposed)`);
    }
    this.#client = client;
    return client;
  }
}
