// SIGINT/SIGTERM abort the command's run: the result is still printed and nothing is left behind. Whatever the
// bindings' handlers do, they run in the bindings host, so this process always gets to handle the signal.
export function interruptible(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => controller.abort(new Error(`interrupted by ${signal}`));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
