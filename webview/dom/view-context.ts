import { copyText } from './clipboard.js';

// Per-render services: listener lifetime, unique ids, clipboard, chunked work and announcements.
export interface ViewContext {
  // aborted when the output is disposed or re-rendered; every listener is registered with it
  readonly signal: AbortSignal;
  id(prefix: string): string;
  copy(text: string): Promise<boolean>;
  // runs work after the current frame, skipped once the view is gone (progressive rendering)
  later(task: () => void): void;
  announce(message: string): void;
  // lets sections talk to each other (e.g. the failure card selecting a call in the timeline)
  readonly bus: EventTarget;
}

export function createViewContext(
  root: ShadowRoot | Document,
  signal: AbortSignal,
  liveRegion: HTMLElement,
): ViewContext {
  let next = 0;
  return {
    signal,
    id: (prefix) => `ptc-${prefix}-${(next += 1)}`,
    copy: (text) => copyText(text, root),
    later(task) {
      const run = (): void => {
        if (!signal.aborted) task();
      };
      // setTimeout after rAF: the browser paints what is already there before the next chunk lands
      requestAnimationFrame(() => setTimeout(run, 0));
    },
    announce(message) {
      liveRegion.textContent = '';
      // a fresh text node so repeated identical messages are read again
      setTimeout(() => {
        if (!signal.aborted) liveRegion.textContent = message;
      }, 30);
    },
    bus: new EventTarget(),
  };
}

// `ctx.bus` events
export const SELECT_CALL = 'ptc-select-call';
export type SelectCallDetail = { callId: number; focus: boolean };
