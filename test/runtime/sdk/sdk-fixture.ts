import type { SdkSource } from '../../../runtime/sdk/index.js';

// Declarations covering the renderer's branches: exotic names, optional args, nested/recursive schemas, enums, two
// namespaces.
export function sampleSource(reversed = false): SdkSource {
  const tools: Record<string, Record<string, unknown>> = {
    add: {
      description: 'Add two numbers.',
      input: {
        type: 'object',
        properties: { a: { type: 'number', description: 'left' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      output: { type: 'number' },
    },
    search: {
      description: 'Search the web.\nBeware */ and """quotes""" and a trailing backslash \\',
      input: {
        type: 'object',
        properties: {
          q: { type: 'string', description: 'query text' },
          limit: { type: 'integer', minimum: 1 },
          'x-mode': { enum: ['fast', 'deep'] },
        },
        required: ['q'],
      },
      output: {
        type: 'array',
        items: {
          type: 'object',
          properties: { url: { type: 'string' }, score: { type: ['number', 'null'] } },
          required: ['url'],
          additionalProperties: false,
        },
      },
    },
    'my-tool': { description: 'A tool with a dash.', input: { type: 'object', properties: {} } },
    quoted: { description: 'Ends with a "quote"' },
    ['__proto__']: {},
    history: { output: { type: 'array', items: { type: 'object', properties: { at: { type: 'string' } } } } },
    pick: {
      input: {
        type: 'object',
        properties: { ids: { type: 'array', items: { type: ['integer', 'string'] } } },
        required: ['ids'],
      },
    },
    import: {
      input: {
        anyOf: [{ type: 'string' }, { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }],
      },
    },
    list: {
      input: {
        type: 'object',
        properties: { tree: { $ref: '#/$defs/node' } },
        $defs: {
          node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
        },
      },
      output: { type: 'object', additionalProperties: { type: 'integer' } },
    },
  };
  const functions: Record<string, Record<string, unknown>> = Object.create(null);
  const names = Object.keys(tools);
  for (const name of reversed ? names.reverse() : names) functions[name] = tools[name] as Record<string, unknown>;
  const namespaces = {
    tools: { errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' }, functions },
    web: {
      functions: {
        fetch: {
          description: 'Fetch a URL.',
          input: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
          output: { type: 'string' },
        },
      },
    },
  };
  return { namespaces: reversed ? { web: namespaces.web, tools: namespaces.tools } : namespaces };
}

export const fencedBlock = (text: string, fence: string): string => {
  const match = new RegExp(`\`\`\`${fence}\\n([\\s\\S]*?)\`\`\`\\n$`).exec(text);
  if (match === null) throw new Error(`no trailing \`\`\`${fence} block`);
  return match[1] as string;
};
