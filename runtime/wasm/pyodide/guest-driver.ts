// One program's run through a loaded Pyodide guest, wherever the guest lives (the Node child, a browser worker): the
// guest's steps followed in order (its frames out, a timer for its next pump), replies fed back in, and exactly one
// end. What carries the frames is the embedding's; what a step means is decided here once. Needs nothing from Node.
import type { GuestStep, PyodideGuest } from './guest.js';

export interface GuestEmbedding {
  // a binding call frame (program-wire JSON text)
  call(frame: string): void;
  // a log frame
  log(frame: string): void;
  // the run's done frame: the last thing sent
  done(frame: string): void;
  // the program asked the interpreter to exit with this code (sys.exit): no done frame follows
  exit(code: number): void;
  // the interpreter itself failed (a trap, Pyodide's fatal error)
  failed(error: unknown): void;
}

export interface GuestDrive {
  // a reply or bindings-lost frame (JSON text) from the host
  reply(frameText: string): void;
}

// Starts the boot frame's program (JSON text) in the guest and follows it to its end.
export function driveGuest(guest: PyodideGuest, bootText: string, embedding: GuestEmbedding): GuestDrive {
  let ended = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const end = (): void => {
    ended = true;
    clearTimeout(timer);
  };
  const follow = (step: GuestStep): void => {
    clearTimeout(timer);
    timer = undefined;
    for (const frame of step.frames) {
      if (ended) return;
      if (frame.startsWith('{"type":"call"')) embedding.call(frame);
      else if (frame.startsWith('{"type":"done"')) {
        end();
        embedding.done(frame);
      } else embedding.log(frame);
    }
    if (ended) return;
    if ('exit' in step) {
      end();
      return embedding.exit(step.exit);
    }
    if (step.next !== null) timer = setTimeout(() => guarded(() => guest.pump()), Math.min(step.next, 2 ** 31 - 1));
  };
  const guarded = (call: () => GuestStep): void => {
    if (ended) return;
    let step: GuestStep;
    try {
      step = call();
    } catch (error) {
      end();
      return embedding.failed(error);
    }
    follow(step);
  };
  guarded(() => guest.start(bootText));
  return { reply: (frameText) => guarded(() => guest.reply(frameText)) };
}
