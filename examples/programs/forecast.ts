// A model program for the local MCP weather server (docs/bindings.md):
//   ptc run examples/programs/forecast.ts --bindings examples/mcp/weather.bindings.ts --mode live
const { city, days } = await weather.forecast({ city: 'Lisbon', days: 3 });
const alerts = await weather.alerts({ city });
console.log(`${city}: ${days.length} days, alerts: ${alerts}`);
return days.map((d: { sky: string; highC: number }) => `${d.sky} ${d.highC}°C`);
