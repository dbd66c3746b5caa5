import { describe, expect, test } from 'vitest';
import { createNonce, inspectorHtml } from '../../../webview/inspector/inspector-html.js';

const options = {
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/inspector.js',
  cspSource: 'https://*.vscode-cdn.net',
  nonce: 'AbCdEfGhIjKlMnOpQrStUvWx',
};

describe('inspectorHtml', () => {
  test('sets a default-none CSP that allows the script only by nonce', () => {
    const html = inspectorHtml(options);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(csp?.split('; ')).toEqual([
      "default-src 'none'",
      "script-src 'nonce-AbCdEfGhIjKlMnOpQrStUvWx'",
      "style-src https://*.vscode-cdn.net 'nonce-AbCdEfGhIjKlMnOpQrStUvWx'",
      'img-src https://*.vscode-cdn.net data:',
      'font-src https://*.vscode-cdn.net',
    ]);
    expect(html).toContain(`<script type="module" nonce="${options.nonce}" src="${options.scriptUri}"></script>`);
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  test("takes code-server's two-expression cspSource but no keyword that loosens the policy", () => {
    const html = inspectorHtml({ ...options, cspSource: "'self' https://*.vscode-cdn.net" });
    expect(html).toContain("style-src 'self' https://*.vscode-cdn.net 'nonce-AbCdEfGhIjKlMnOpQrStUvWx'");
    expect(() => inspectorHtml({ ...options, cspSource: "'self' 'unsafe-inline'" })).toThrow(/cspSource must be/);
    expect(() => inspectorHtml({ ...options, cspSource: "'unsafe-eval'" })).toThrow(TypeError);
  });

  test('escapes the script URI into its attribute', () => {
    const html = inspectorHtml({ ...options, scriptUri: 'https://x/a.js?"><script>alert(1)</script>' });
    expect(html).toContain('src="https://x/a.js?&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  test.each([
    ['a short nonce', { nonce: 'abc' }, /nonce must be/],
    ['a nonce with quotes', { nonce: `${'a'.repeat(20)}'` }, /nonce must be/],
    ['a cspSource that adds directives', { cspSource: "https://x; script-src 'unsafe-inline'" }, /cspSource must be/],
    ['a javascript: script URI', { scriptUri: 'javascript:alert(1)' }, /scriptUri must be/],
  ])('refuses %s with a TypeError naming the option', (_name, bad, message) => {
    expect(() => inspectorHtml({ ...options, ...bad })).toThrow(TypeError);
    expect(() => inspectorHtml({ ...options, ...bad })).toThrow(message);
  });
});

describe('createNonce', () => {
  test('is 32 URL-safe base64 characters and never repeats', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => createNonce()));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(() => inspectorHtml({ ...options, nonce: createNonce() })).not.toThrow();
  });
});
