// Entry of the quickjs engine's child process (built to dist/runtime/quickjs-child.cjs): a Node process like the
// native engine's child, on the same wire (node-wire.ts), that runs the program inside a fresh QuickJS context
// compiled to WebAssembly (guest-run.ts). This file is the Node side only: frames on the control channel, calls
// routed to the bindings host's own connection, and the process ending once the run settled.
import { decodeLossless } from '../../json/lossless.js';
import type { BootFrame } from '../../protocol/node-wire.js';
import {
  callRouter,
  errorFrame,
  receiveFrames,
  receiveHostReplies,
  sendFrame,
  sendFrameParts,
  sendLogFrame,
} from '../../typescript/child/control.js';
import { describeThrown } from '../../typescript/child/describe-thrown.js';
import type { ReplyHandler } from '../../typescript/child/namespaces.js';
import { loadGuest, startGuest, type Guest, type GuestRun } from './guest-run.js';

let settled = false;

function finish(head: string, parts?: readonly string[], count?: number, tail?: string): never {
  if (!settled) {
    settled = true;
    if (parts === undefined) sendFrame(head);
    else sendFrameParts(head, parts, count ?? parts.length, tail ?? '');
  }
  return process.exit(0);
}

function start(guest: Guest, boot: BootFrame): GuestRun {
  const router = callRouter(boot.bindingsFd);
  const run = startGuest(guest, boot, {
    finish,
    log: (stream, text) => sendLogFrame(stream, text, false),
    sendCalls: (texts) => router.send(texts),
  });
  if (boot.bindingsFd !== undefined) {
    const parse = (text: string): unknown => {
      const decoded = decodeLossless(text);
      return decoded.ok ? decoded.value : undefined;
    };
    receiveHostReplies(boot.bindingsFd, parse, run.handleReply, run.flushOutbox);
  }
  return {
    ...run,
    lose: (message) => {
      router.lose();
      run.lose(message);
    },
  };
}

async function main(): Promise<void> {
  const guest = await loadGuest();
  let run: GuestRun | undefined;
  let booted = false;
  receiveFrames(
    (text) => {
      const decoded = decodeLossless(text);
      if (!decoded.ok || decoded.value === null || typeof decoded.value !== 'object') return;
      const frame = decoded.value as { type?: unknown; message?: unknown };
      if (frame.type === 'boot' && !booted) {
        booted = true;
        try {
          run = start(guest, frame as unknown as BootFrame);
        } catch (error) {
          // the engine itself failed (a trap below QuickJS's own checks): still one result, naming the engine (a done
          // frame carries exception, invalid-output or output-limit only)
          finish(errorFrame('exception', `the quickjs engine failed: ${describeThrown(error).message}`));
        }
      } else if (frame.type === 'reply' && run !== undefined) {
        run.reply(frame as unknown as Parameters<ReplyHandler>[0]);
      } else if (frame.type === 'bindings-lost' && run !== undefined) {
        run.lose(typeof frame.message === 'string' ? frame.message : 'the bindings host is gone');
      }
    },
    () => process.exit(settled ? 0 : 70),
  );
  sendFrame('{"type":"ready"}');
}

void main().catch((error: unknown) => {
  process.stderr.write(`the quickjs engine could not start: ${String(error)}\n`);
  process.exit(70);
});
