// What "New PTC Notebook" writes: a notebook with a starter cell per language and a small bindings module.
export function starterNotebook(bindingsFileName: string, ids: { typescript: string; python: string }): string {
  return serializeNotebook({
    version: 1,
    metadata: { bindings: `./${bindingsFileName}`, mode: 'mock' },
    cells: [
      {
        kind: 'markdown',
        source: [
          '# Model program playground',
          '',
          'Each code cell is a program a model could write: the body of an async function that calls the bindings',
          `declared in \`${bindingsFileName}\` (here \`tools.*\`). Only what it prints and returns reaches the model.`,
          'Switch between mock and live handlers in the status bar.',
        ].join('\n'),
      },
      {
        kind: 'code',
        language: 'typescript',
        source: [
          "const hits = await tools.search({ query: 'model programs' });",
          'console.log(`found ${hits.length} result(s)`);',
          'const [first] = hits;',
          'return first ? await tools.summarize({ text: first.snippet }) : null;',
        ].join('\n'),
        metadata: { id: ids.typescript },
      },
      {
        kind: 'code',
        language: 'python',
        source: [
          "hits = await tools.search({'query': 'model programs'})",
          "print(f'found {len(hits)} result(s)')",
          "return [hit['title'] for hit in hits]",
        ].join('\n'),
        metadata: { id: ids.python },
      },
    ],
  });
}

export const STARTER_BINDINGS = `// Bindings for the notebook next to this file: one key per global the programs see.
// Each function has a JSON Schema for its input, a mock handler (default) and a live handler.
const documents = [
  { title: 'Sandboxing model programs', snippet: 'Each program runs in a fresh, confined process.' },
  { title: 'Programmatic tool calling', snippet: 'The model writes one program that calls tools as functions.' },
];

// documents whose title or snippet contains any word of the query
const find = (query: string) => {
  const words = query.toLowerCase().split(/\\s+/).filter((w) => w !== '');
  return documents.filter((d) => words.some((w) => \`\${d.title} \${d.snippet}\`.toLowerCase().includes(w)));
};

export default {
  tools: {
    errorClass: { name: 'ToolError', memberNameProperty: 'toolName' },
    functions: {
      search: {
        description: 'Search the documents; returns matching titles and snippets.',
        input: {
          type: 'object',
          properties: { query: { type: 'string', description: 'words to look for' } },
          required: ['query'],
          additionalProperties: false,
        },
        mock: async ({ query }: { query: string }) => find(query),
        // stands in for a real service: replace it with a fetch to yours, then record a cassette of its answers
        live: async ({ query }: { query: string }) => find(query).map((d) => ({ ...d, retrievedAt: new Date().toISOString() })),
      },
      summarize: {
        description: 'Shorten a text to its first sentence.',
        input: {
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
          additionalProperties: false,
        },
        mock: async ({ text }: { text: string }) => text.split('.')[0] + '.',
      },
    },
  },
};
`;
import { serializeNotebook } from '../../runtime/index.js';
