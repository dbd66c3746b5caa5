// A failing model program: it never finishes, so the runtime ends it at the deadline and keeps what it printed.
console.log('thinking very hard…');
while (true) {}
