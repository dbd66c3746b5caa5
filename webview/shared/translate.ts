// The shape of vscode.l10n.t / @vscode/l10n's l10n.t for plain strings with {0}-style arguments. Shared text helpers
// take one: the webviews pass l10n.t (the display language), the model-facing and plain-text paths pass `untranslated`.
export type Translate = (message: string, ...args: (string | number | boolean)[]) => string;

// Substitutes {0}, {1}, ... the way vscode.l10n.t does when no translation bundle is loaded.
export const untranslated: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
