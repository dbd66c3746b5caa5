// Bindings for the example programs: every function has a mock (offline) and, where it makes sense, a live handler.
const CITIES = { paris: { country: 'FR', population: 2_102_650 }, lyon: { country: 'FR', population: 522_250 }, berlin: { country: 'DE', population: 3_755_251 } };

export default {
  tools: {
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      lookupCity: {
        description: 'Look up a city by name.',
        input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
        mock: async ({ name }) => {
          const city = CITIES[String(name).toLowerCase()];
          if (city === undefined) throw new Error(`no such city: ${name}`);
          return { name, ...city };
        },
      },
      add: {
        description: 'Add two numbers.',
        input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        mock: async ({ a, b }) => a + b,
        live: async ({ a, b }) => a + b,
      },
      now: { description: 'The current time as an ISO string.', mock: async () => '2026-01-01T00:00:00.000Z', live: async () => new Date().toISOString() },
    },
  },
};
