// What `node:events` is in the browser build: the call dispatcher lifts Node's listener-count warning on its abort
// signal; a browser's EventTarget has no such warning, so there is nothing to lift.
export function setMaxListeners(): void {
  // nothing to do in a browser
}

export default { setMaxListeners };
