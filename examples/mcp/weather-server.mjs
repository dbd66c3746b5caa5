// A small local MCP server (stdio) for examples/mcp/weather.ptcnb, written with the official SDK.
// It serves made-up but deterministic weather: the same city and day always give the same forecast, offline.
// Run by the bindings module as `node weather-server.mjs`; it speaks JSON-RPC on stdin/stdout and logs to stderr.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const STATIONS = {
  paris: { name: 'Paris', lat: 48.86, lon: 2.35, base: 14 },
  berlin: { name: 'Berlin', lat: 52.52, lon: 13.4, base: 11 },
  madrid: { name: 'Madrid', lat: 40.42, lon: -3.7, base: 19 },
  oslo: { name: 'Oslo', lat: 59.91, lon: 10.75, base: 6 },
  lisbon: { name: 'Lisbon', lat: 38.72, lon: -9.14, base: 18 },
};
const SKIES = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'showers', 'windy'];

// FNV-1a: a stable pseudo-random number per (city, day), so forecasts never change between runs
function hash(text) {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193) >>> 0;
  return h;
}

function station(city) {
  const found = STATIONS[String(city).trim().toLowerCase()];
  if (!found) throw new Error(`no weather station for "${city}" (known: ${Object.values(STATIONS).map((s) => s.name).join(', ')})`);
  return found;
}

function forecast(city, days) {
  const s = station(city);
  return {
    city: s.name,
    days: Array.from({ length: days }, (_, day) => {
      const h = hash(`${s.name}/${day}`);
      const high = s.base + (h % 9) - 2;
      return { day: day + 1, sky: SKIES[h % SKIES.length], highC: high, lowC: high - 4 - ((h >>> 8) % 5), rainMm: (h >>> 16) % 3 === 0 ? ((h >>> 4) % 120) / 10 : 0 };
    }),
  };
}

const tools = [
  {
    name: 'stations',
    description: 'List the cities this server has weather stations for.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: { stations: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, lat: { type: 'number' }, lon: { type: 'number' } }, required: ['name', 'lat', 'lon'] } } },
      required: ['stations'],
    },
  },
  {
    name: 'forecast',
    description: 'Daily forecast for a city: sky, high and low in °C, rain in mm.',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, maximum: 7, default: 3 } },
      required: ['city'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: {
          type: 'array',
          items: {
            type: 'object',
            properties: { day: { type: 'integer' }, sky: { type: 'string' }, highC: { type: 'number' }, lowC: { type: 'number' }, rainMm: { type: 'number' } },
            required: ['day', 'sky', 'highC', 'lowC', 'rainMm'],
          },
        },
      },
      required: ['city', 'days'],
    },
  },
  {
    name: 'alerts',
    description: 'Active weather alerts for a city, as plain text ("none" when there are none).',
    inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false },
  },
];

const structured = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
const failure = (message) => ({ isError: true, content: [{ type: 'text', text: message }] });

const server = new Server({ name: 'ptc-example-weather', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  try {
    switch (request.params.name) {
      case 'stations':
        return structured({ stations: Object.values(STATIONS).map(({ name, lat, lon }) => ({ name, lat, lon })) });
      case 'forecast':
        return structured(forecast(args.city, Number.isInteger(args.days) ? args.days : 3));
      case 'alerts': {
        const s = station(args.city);
        const rainy = forecast(s.name, 3).days.filter((d) => d.rainMm >= 5);
        return { content: [{ type: 'text', text: rainy.length === 0 ? 'none' : rainy.map((d) => `heavy rain expected on day ${d.day} (${d.rainMm} mm)`).join('\n') }] };
      }
      default:
        return failure(`unknown tool ${request.params.name}`);
    }
  } catch (error) {
    // a tool failure is a result with isError, not a protocol error: the model program sees it as a failed call
    return failure(error.message);
  }
});

await server.connect(new StdioServerTransport());
process.stderr.write('weather MCP server ready on stdio\n');
