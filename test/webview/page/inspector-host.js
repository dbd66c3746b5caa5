// Stands in for VS Code's webview host around the inspector page, installed as a Playwright init script (which the
// page's CSP does not govern, just as VS Code's own host script is not): acquireVsCodeApi with state kept in
// sessionStorage so a reload restores it (as the panel serializer does), the theme's --vscode-* variables and body
// class, and a record of CSP violations. Expects `window.__PTC_THEME_CSS` to hold test/webview/page/themes.css.
(() => {
  const KEY = 'ptc-inspector-state';
  const theme = new URLSearchParams(location.search).get('theme') ?? 'dark';
  window.__posted = [];
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(window.__PTC_THEME_CSS ?? '');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  const applyTheme = () => {
    document.body.className = `vscode-${theme}`;
  };
  if (document.body === null) document.addEventListener('DOMContentLoaded', applyTheme, { once: true });
  else applyTheme();
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return {
      postMessage: (message) => window.__posted.push(JSON.parse(JSON.stringify(message))),
      getState: () => {
        const saved = sessionStorage.getItem(KEY);
        return saved === null ? undefined : JSON.parse(saved);
      },
      setState: (value) => {
        sessionStorage.setItem(KEY, JSON.stringify(value));
      },
    };
  };
})();
