// about: an endless microtask chain starving the event loop
// expect: timeout
const spin = (): Promise<void> => Promise.resolve().then(spin);
void spin();
await new Promise(() => {});
