// Constructable stylesheets: one parsed sheet shared by every shadow root, and unaffected by a strict style-src CSP.
export function createSheet(cssText: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(cssText);
  return sheet;
}

export function adoptSheet(root: ShadowRoot | Document, sheet: CSSStyleSheet): void {
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
