// The run workers' and the bindings worker's bundled sources, embedded by scripts/build-web-extension.mjs.
declare module 'ptc:run-worker' {
  const source: string;
  export default source;
}
declare module 'ptc:pyodide-worker' {
  const source: string;
  export default source;
}
declare module 'ptc:bindings-worker' {
  const source: string;
  export default source;
}
