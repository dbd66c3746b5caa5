// The one shape of MCP content items a program receives (runtime/bindings/mcp/map-result.ts makes it), as a JSON
// Schema, so both SDK renderers declare it with their usual machinery: once, named McpContent.
// the server's annotations (audience, priority), kept on every kind of item when it sent any
const ANNOTATIONS = {};
const text = (description: string): Record<string, unknown> => ({ type: 'string', description });

const item = (
  kind: string | string[],
  properties: Record<string, unknown>,
  required: string[],
): Record<string, unknown> => ({
  type: 'object',
  properties: { type: Array.isArray(kind) ? { enum: kind } : { const: kind }, ...properties, annotations: ANNOTATIONS },
  required: ['type', ...required],
  additionalProperties: false,
});

// Each kind of item with the name the Python stub gives its TypedDict.
export const MCP_CONTENT_KINDS: [string, Record<string, unknown>][] = (
  [
    item('text', { text: { type: 'string' } }, ['text']),
    item(['image', 'audio'], { data: text('base64 bytes'), mimeType: { type: 'string' } }, ['data', 'mimeType']),
    item(
      'resource',
      {
        resource: {
          type: 'object',
          properties: {
            uri: { type: 'string' },
            mimeType: { type: 'string' },
            text: { type: 'string' },
            blob: text('base64 bytes'),
          },
          required: ['uri'],
          additionalProperties: false,
        },
      },
      ['resource'],
    ),
    item(
      'resource_link',
      {
        uri: text("read it with the namespace's read_resource function, when the bindings module offers it"),
        name: { type: 'string' },
        title: { type: 'string' },
        description: { type: 'string' },
        mimeType: { type: 'string' },
        size: { type: 'number' },
      },
      ['uri', 'name'],
    ),
    {
      type: 'object',
      properties: {
        type: { const: 'unknown' },
        original: text('what the server sent (as JSON text, cut at 1000 characters)'),
      },
      required: ['type', 'original'],
      additionalProperties: false,
    },
  ] as Record<string, unknown>[]
).map((schema, i) => [['McpText', 'McpMedia', 'McpResource', 'McpResourceLink', 'McpUnknown'][i] as string, schema]);

export const MCP_CONTENT_SCHEMA: Record<string, unknown> = { anyOf: MCP_CONTENT_KINDS.map(([, schema]) => schema) };

export const MCP_CONTENT_DOC =
  'One item of an MCP tool result, in the order the server sent them. A text item often holds JSON: parse it yourself.';
