// The handle VS Code injects into webview pages; acquired once per page load.
export interface WebviewApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export function acquireWebviewApi(): WebviewApi | undefined {
  const acquire = (globalThis as { acquireVsCodeApi?: () => WebviewApi }).acquireVsCodeApi;
  return typeof acquire === 'function' ? acquire() : undefined;
}
