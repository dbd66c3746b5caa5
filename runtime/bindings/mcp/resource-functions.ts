import type { JsonValue } from '../../protocol/json-value.js';
import type { BindingFunction } from '../../api.js';
import type { FunctionDeclaration, HandlerContext } from '../module-format.js';
import type { McpServerSession } from './mcp-server.js';

const optionalString = { type: 'string' } as const;

const RESOURCE_CONTENTS = {
  type: 'object',
  description: 'One resource content: `text`, or `blob` (base64) for binary data.',
  properties: {
    uri: { type: 'string' },
    mimeType: optionalString,
    text: optionalString,
    blob: { type: 'string', description: 'base64' },
  },
  required: ['uri'],
  additionalProperties: false,
};

// `read_resource({ uri })`: a server resource (or a resource_link the program received), like any other call:
// validated, recorded, replayed.
export function resourceReadDeclaration(session: McpServerSession): FunctionDeclaration {
  return {
    description: `Reads a resource of this MCP server by its URI (from list_resources, or a resource_link item a tool returned).`,
    input: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'], additionalProperties: false },
    output: { type: 'array', items: RESOURCE_CONTENTS },
    live: handler(
      async (args, context) => (await session.readResource((args as { uri: string }).uri, context.signal)) as JsonValue,
    ),
  };
}

// `list_resources()`: the resources the server lists (every page).
export function resourceListDeclaration(session: McpServerSession): FunctionDeclaration {
  return {
    description: 'Lists the resources of this MCP server.',
    input: { type: 'object', properties: {}, additionalProperties: false },
    output: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          uri: { type: 'string' },
          name: { type: 'string' },
          title: optionalString,
          description: optionalString,
          mimeType: optionalString,
          size: { type: 'number' },
        },
        required: ['uri', 'name'],
        additionalProperties: false,
      },
    },
    live: handler(async (_args, context) => (await session.listResources(context.signal)) as unknown as JsonValue),
  };
}

// A handler of an MCP-backed function: served by serveFunction, which always passes its HandlerContext.
export function handler(fn: (args: JsonValue, context: HandlerContext) => Promise<JsonValue>): BindingFunction {
  return fn as unknown as BindingFunction;
}
