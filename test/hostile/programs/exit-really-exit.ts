// about: the internal reallyExit binding
// expect: worker-exit
(process as unknown as { reallyExit(c: number): void }).reallyExit(3);
await new Promise(() => {});
