// about: an endless microtask chain starving the event loop (each link is dropped, so only the deadline can end it)
// expect: timeout
const spin = (): void => {
  void Promise.resolve().then(spin);
};
spin();
await new Promise(() => {});
