// esbuild's `text` loader turns imported CSS into its source string (injected into shadow roots / adopted sheets).
declare module '*.css' {
  const text: string;
  export default text;
}
