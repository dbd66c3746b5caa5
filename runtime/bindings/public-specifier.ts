// The specifier authors import `defineBindings` from, and the module served for it from memory (no install needed):
// the desktop's bundler and the browser's bindings worker both provide it.
export const PUBLIC_SPECIFIER = 'ptc-playground/bindings';
export const PUBLIC_SOURCE = 'export function defineBindings(bindings) { return bindings; }\n';
