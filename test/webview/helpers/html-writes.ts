// An init script that records every HTML-parsing DOM write, so tests can prove program text never goes through one.
export const RECORD_HTML_WRITES = `
window.__htmlWrites = [];
for (const [proto, prop] of [[Element.prototype, 'innerHTML'], [Element.prototype, 'outerHTML'], [ShadowRoot.prototype, 'innerHTML']]) {
  const d = Object.getOwnPropertyDescriptor(proto, prop);
  if (!d || !d.set) continue;
  Object.defineProperty(proto, prop, { ...d, set(value) { window.__htmlWrites.push(prop); return d.set.call(this, value); } });
}
for (const [proto, name] of [[Element.prototype, 'insertAdjacentHTML'], [Range.prototype, 'createContextualFragment'], [Document.prototype, 'write']]) {
  const original = proto[name];
  proto[name] = function (...args) { window.__htmlWrites.push(name); return original.apply(this, args); };
}
`;
