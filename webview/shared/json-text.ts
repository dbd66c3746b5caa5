// The runtime's iterative JSON writer (browser-safe, import-free): V8's JSON.stringify overflows the stack near
// 5 000 levels, and indenting every level of a deep value would be quadratic.
export { jsonText, type JsonTextOptions } from '../../runtime/json/json-text.js';
