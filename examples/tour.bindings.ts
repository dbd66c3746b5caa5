// Bindings for examples/tour.ptcnb: the host functions a model program may call, each with a mock (offline,
// deterministic) and, where there is something real to ask, a live handler. Handlers run in the host process, never
// inside the sandboxed program; the program only sees the JSON they return.
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { defineBindings } from 'ptc-playground/bindings';

interface City {
  name: string;
  country: string;
  population: number;
}

const CITIES: Record<string, City> = {
  paris: { name: 'Paris', country: 'FR', population: 2_102_650 },
  lyon: { name: 'Lyon', country: 'FR', population: 522_250 },
  berlin: { name: 'Berlin', country: 'DE', population: 3_755_251 },
  hamburg: { name: 'Hamburg', country: 'DE', population: 1_910_160 },
  madrid: { name: 'Madrid', country: 'ES', population: 3_332_035 },
};

const cityShape = {
  type: 'object',
  properties: { name: { type: 'string' }, country: { type: 'string' }, population: { type: 'integer' } },
  required: ['name', 'country', 'population'],
  additionalProperties: false,
};

export default defineBindings({
  tools: {
    // failed calls surface in the program as ToolCallError with .toolName set
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      lookupCity: {
        description: 'Look up a city by name; fails for cities it does not know.',
        input: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'], additionalProperties: false },
        output: cityShape,
        // a little latency so the timeline shows the calls overlapping
        latencyMs: 120,
        mock: async ({ name }: { name: string }) => {
          const city = CITIES[name.toLowerCase()];
          if (city === undefined) throw new Error(`no such city: ${name}`);
          return city;
        },
      },
      listCities: {
        description: 'List the names of every known city in one country (ISO 3166 alpha-2 code).',
        input: { type: 'object', properties: { country: { type: 'string', pattern: '^[A-Z]{2}$' } }, required: ['country'], additionalProperties: false },
        output: { type: 'array', items: { type: 'string' } },
        mock: async ({ country }: { country: string }) => Object.values(CITIES).filter((c) => c.country === country).map((c) => c.name),
      },
    },
  },
  host: {
    functions: {
      describe: {
        description: 'Describe the machine the host runs on (live) or a fixed example machine (mock).',
        output: {
          type: 'object',
          properties: { platform: { type: 'string' }, arch: { type: 'string' }, node: { type: 'string' }, cpus: { type: 'integer' } },
          required: ['platform', 'arch', 'node', 'cpus'],
        },
        mock: async () => ({ platform: 'linux', arch: 'x64', node: 'v20.0.0', cpus: 4 }),
        live: async () => ({ platform: process.platform, arch: process.arch, node: process.version, cpus: os.cpus().length }),
      },
      now: {
        description: 'The current time as an ISO 8601 string.',
        output: { type: 'string' },
        mock: async () => '2026-01-01T12:00:00.000Z',
        live: async () => new Date().toISOString(),
      },
      newId: {
        description: 'A fresh random identifier (a different one on every live call).',
        output: { type: 'string' },
        mock: async () => '00000000-0000-4000-8000-000000000000',
        live: async () => randomUUID(),
      },
    },
  },
});
