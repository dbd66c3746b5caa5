import type { BrowserContext } from 'playwright-core';

export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: readonly string[];
export type ChromiumStatus = { state: 'present' } | { state: 'installable' } | { state: 'unavailable'; reason: string };
export declare function chromiumStatus(): ChromiumStatus;
export declare function ensureChromium(): string;
export interface LaunchedChromium {
  context: BrowserContext;
  version: string;
  close(): Promise<void>;
}
export declare function launchChromium(): Promise<LaunchedChromium>;
