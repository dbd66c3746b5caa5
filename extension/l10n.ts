// The translator type and its English fallback live with the shared text helpers (webview/shared), which take one too.
export { untranslated, type Translate } from '../webview/shared/translate.js';
