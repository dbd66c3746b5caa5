// Entry of the browser's run worker (built to dist/web-run-worker.js, embedded in the web extension): one dedicated
// web worker per run, holding one QuickJS context (guest-run.ts, the same run as the quickjs engine's Node child).
// Frames are the Node child's (node-wire.ts) as text messages; the extension's side (web-engine.ts) reads them as
// hostile. A worker has no files or processes to reach, and the guest inside QuickJS sees none of the worker's
// globals either; the deadline is enforced twice: QuickJS's interrupt inside, terminate() outside.
import { decodeLossless } from '../../json/lossless.js';
import type { BootFrame } from '../../protocol/node-wire.js';
import { describeThrown, errorFrame } from '../../typescript/child/describe-thrown.js';
import type { Reply } from '../../typescript/child/namespaces.js';
import { loadGuest, startGuest, type GuestRun } from '../quickjs/guest-run.js';

interface WorkerScope {
  postMessage(message: string): void;
  close(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
}
const scope = globalThis as unknown as WorkerScope;
const post = scope.postMessage.bind(scope);
const close = scope.close.bind(scope);

let done = false;
function finish(head: string, parts?: readonly string[], count?: number, tail?: string): void {
  if (done) return;
  done = true;
  post(parts === undefined ? head : head + parts.slice(0, count ?? parts.length).join('') + (tail ?? ''));
  // the guest stops at its next interrupt check; the extension terminates the worker once it read the frame
  close();
}

async function main(): Promise<void> {
  const guest = await loadGuest();
  let run: GuestRun | undefined;
  scope.onmessage = (event) => {
    if (typeof event.data !== 'string') return;
    const decoded = decodeLossless(event.data);
    if (!decoded.ok || decoded.value === null || typeof decoded.value !== 'object') return;
    const frame = decoded.value as { type?: unknown; message?: unknown };
    if (frame.type === 'boot' && run === undefined && !done) {
      try {
        run = startGuest(guest, frame as unknown as BootFrame, {
          finish,
          log: (stream, text) => post(JSON.stringify({ type: 'log', stream, text })),
          sendCalls: (texts) => {
            for (const text of texts) post(text);
          },
        });
      } catch (error) {
        finish(errorFrame('exception', `the quickjs engine failed: ${describeThrown(error).message}`));
      }
    } else if (frame.type === 'reply' && run !== undefined) {
      run.reply(frame as unknown as Reply);
    } else if (frame.type === 'bindings-lost' && run !== undefined) {
      run.lose(typeof frame.message === 'string' ? frame.message : 'the bindings are gone');
    }
  };
  post('{"type":"ready"}');
}

void main().catch((error: unknown) => {
  finish(errorFrame('exception', `the quickjs engine could not start in this browser: ${String(error)}`));
});
