// A model program: look cities up in parallel, handle a failing call, return a summary.
const names = ['Paris', 'Lyon', 'Berlin', 'Atlantis'];
const settled = await Promise.allSettled(names.map((name) => tools.lookupCity({ name })));
const found: { name: string; population: number }[] = [];
for (const [i, outcome] of settled.entries()) {
  if (outcome.status === 'fulfilled') found.push(outcome.value as { name: string; population: number });
  else console.log(`skipped ${names[i]}: ${(outcome.reason as Error).message}`);
}
const total = found.reduce((sum, city) => sum + city.population, 0);
console.log(`found ${found.length} of ${names.length} cities`);
return { total, largest: found.sort((a, b) => b.population - a.population)[0]?.name };
