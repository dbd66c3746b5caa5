// The browser entry's dedicated workers (a run's, a bindings module's): started from source text the build embeds
// (scripts/build-web-extension.mjs), and seen as the runtime's RunWorker.
import type { RunWorker } from '../../runtime/browser.js';

// a blob: URL is same-origin wherever the extension's own files are served from; one per source for the host's life
const urls = new Map<string, string>();

export function embeddedWorker(source: string, name: string): Worker {
  let url = urls.get(source);
  if (url === undefined) {
    url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    urls.set(source, url);
  }
  return new Worker(url, { name });
}

export type StartedWorker = RunWorker & {
  readonly worker: Worker;
  terminated: boolean;
  // a message as if the worker had sent it
  deliver(data: unknown): void;
  // resolves at the worker's first message: ready, or why it cannot run
  readonly said: Promise<void>;
};

// A dedicated worker seen as a RunWorker (a run's, or a bindings module's); what it says before anyone listens is kept
// for them (a spare is ready early).
export function runWorker(worker: Worker): StartedWorker {
  const early: { data: unknown }[] = [];
  let listener: RunWorker['onmessage'] = null;
  let said: () => void = () => undefined;
  const run: StartedWorker = {
    said: new Promise<void>((resolve) => (said = resolve)),
    worker,
    terminated: false,
    postMessage: (message) => worker.postMessage(message),
    terminate: () => {
      run.terminated = true;
      worker.terminate();
    },
    get onmessage() {
      return listener;
    },
    set onmessage(handler) {
      listener = handler;
      for (const event of early.splice(0)) handler?.(event);
    },
    onerror: null,
    deliver: (data) => {
      said();
      if (listener === null) early.push({ data });
      else listener({ data });
    },
  };
  worker.onmessage = (event) => run.deliver(event.data);
  worker.onerror = (event) => run.onerror?.(event);
  return run;
}
