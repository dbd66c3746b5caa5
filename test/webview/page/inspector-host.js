// Stands in for VS Code's webview host around the inspector page: acquireVsCodeApi, with state kept in
// sessionStorage so a reload restores it (as the panel serializer does), and a record of CSP violations.
(() => {
  const KEY = 'ptc-inspector-state';
  const theme = new URLSearchParams(location.search).get('theme') ?? 'dark';
  document.body.className = `vscode-${theme}`;
  window.__posted = [];
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
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
