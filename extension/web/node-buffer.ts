// What `node:buffer` is in the browser build (amaro takes Buffer from it): the same stand-in the build injects.
export { Buffer } from './buffer.js';
