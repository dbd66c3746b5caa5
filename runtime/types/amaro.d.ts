// amaro ships no typings; this is the one function the runtime uses.
declare module 'amaro' {
  export function transformSync(code: string, options: { mode: 'strip-only' | 'transform' }): { code: string };
}
