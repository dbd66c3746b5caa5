// The renderer test page's window.harness (see renderer-harness.js).
interface PtcHarness {
  posted: unknown[];
  preload(names: string[]): Promise<void>;
  render(name: string, id?: string): Promise<string>;
  renderText(id: string, text: string): Promise<string>;
  renderItem(id: string, mime: string, text: string): Promise<string>;
  measure(name: string, id: string): Promise<number>;
  dispose(id: string | undefined): void;
  remove(id: string): void;
  clear(): void;
  send(message: unknown): void;
  setTheme(theme: string): void;
  active(): number;
}

interface Window {
  harness: PtcHarness;
}
