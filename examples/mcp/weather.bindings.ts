// Bindings for examples/mcp/weather.ptcnb: the `weather` namespace is a local MCP server (weather-server.mjs, stdio).
// Its tools, descriptions and JSON schemas come from the server; in live mode every call goes to it. The mock below
// stands in for `forecast` in mock mode, so the notebook also runs without the server being involved in calls.
import { defineBindings } from 'ptc-playground/bindings';

export default defineBindings({
  weather: {
    errorClass: { name: 'WeatherError', memberNameProperty: 'tool' },
    // started once when the bindings load, from this module's folder, and stopped when they are unloaded
    mcp: { command: 'node', args: ['weather-server.mjs'] },
    functions: {
      // `alerts` answers plain text: declared as a string (the default would be its content items)
      alerts: { result: 'text' },
      forecast: {
        timeoutMs: 5_000,
        mock: async ({ city, days = 3 }: { city: string; days?: number }) => ({
          city,
          days: Array.from({ length: days }, (_, i) => ({ day: i + 1, sky: 'sunny', highC: 20, lowC: 12, rainMm: 0 })),
        }),
      },
    },
  },
});
