// The run worker's bundled source, embedded by scripts/build-web-extension.mjs.
declare module 'ptc:run-worker' {
  const source: string;
  export default source;
}
