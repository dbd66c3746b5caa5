// The inspector panel's HTML (DOM-free: the extension host calls it). All content is built by the page script.
import type { L10nBundle } from '../protocol/l10n-bundle.js';

export interface InspectorHtmlOptions {
  // webview.asWebviewUri(<extension>/dist/webview/inspector.js).toString()
  scriptUri: string;
  // webview.cspSource
  cspSource: string;
  // a fresh value from createNonce() for every html assignment
  nonce: string;
  // the document language, e.g. vscode.env.language
  lang?: string;
  // vscode.l10n.bundle: the page loads it before drawing anything (absent in English)
  l10n?: L10nBundle;
  // the two strings the document shows before the page script runs, already translated by the host
  text?: { title: string; loading: string };
}

const ENGLISH_TEXT = { title: 'PTC Run Inspector', loading: 'Loading the run inspector…' };

const NONCE = /^[A-Za-z0-9+/=_-]{16,128}$/;

// A CSP nonce from the platform CSPRNG (globalThis.crypto exists in Node 20 and in webviews), never Math.random.
export function createNonce(): string {
  const bytes = new Uint8Array(24);
  globalThis.crypto.getRandomValues(bytes);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// The panel document: `default-src 'none'`, the script only by nonce, styles only from the bundle (constructed sheets).
export function inspectorHtml(options: InspectorHtmlOptions): string {
  if (!NONCE.test(options.nonce))
    throw new TypeError(`inspectorHtml: nonce must be 16-128 base64 characters, got ${JSON.stringify(options.nonce)}`);
  // code-server's webviews give two expressions ("'self' https://*.vscode-cdn.net"); anything that could add a directive is refused
  if (
    !options.cspSource
      .trim()
      .split(/\s+/)
      .every((source) => /^('self'|[^\s;,'"]+)$/.test(source))
  ) {
    throw new TypeError(
      `inspectorHtml: cspSource must be CSP source expressions, got ${JSON.stringify(options.cspSource)}`,
    );
  }
  if (!/^(https?|vscode-webview|vscode-resource|file):/i.test(options.scriptUri)) {
    throw new TypeError(`inspectorHtml: scriptUri must be a webview URI, got ${JSON.stringify(options.scriptUri)}`);
  }
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${options.nonce}'`,
    `style-src ${options.cspSource} 'nonce-${options.nonce}'`,
    `img-src ${options.cspSource} data:`,
    `font-src ${options.cspSource}`,
  ].join('; ');
  const text = options.text ?? ENGLISH_TEXT;
  const bundle =
    options.l10n === undefined || Object.keys(options.l10n).length === 0
      ? ''
      : ` data-l10n="${escapeAttribute(JSON.stringify(options.l10n))}"`;
  const lang = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(options.lang ?? '') ? (options.lang as string) : 'en';
  return [
    '<!DOCTYPE html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<title>${escapeText(text.title)}</title>`,
    '</head>',
    '<body>',
    `<main id="inspector" aria-live="polite"${bundle}><p class="ptc-booting">${escapeText(text.loading)}</p></main>`,
    `<script type="module" nonce="${escapeAttribute(options.nonce)}" src="${escapeAttribute(options.scriptUri)}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
