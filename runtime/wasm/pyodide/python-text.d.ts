// Python sources bundled as text (esbuild's text loader for .py, scripts/build-runtime.mjs)
declare module '*.py' {
  const text: string;
  export default text;
}
