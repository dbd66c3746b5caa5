import {
  ArrayPrototypeJoin as join,
  StringPrototypeIndexOf as indexOf,
  StringPrototypeSlice as slice,
} from '../../json/primordials.js';

// Joins stream writes into completed lines; fragments are sealed in blocks so a 25 MB one-character drip stays linear.
// Runs after model code: captured intrinsics and counted arrays only (the program may patch Array/String prototypes;
// an accessor it plants on an Array.prototype index makes a write here throw into the program, never lose text).
const SEAL_AT = 1024;
// unterminated writes per event-loop turn that reach the host at once; later ones go out when the turn ends
const OPEN_WRITES_PER_TURN = 64;
// captured before any model code runs
const setImmediateOf = setImmediate;

export type OnLine = (line: string, open: boolean) => void;

export class LineBuffer {
  #fragments: string[] = [];
  #fragmentCount = 0;
  #blocks: string[] = [];
  #blockCount = 0;
  #pending = 0;
  // the ledger's remaining bytes as last read: it only shrinks, so a cached value errs on the generous side and is
  // re-read whenever pending text passes it and at every seal (25 million one-character writes read it ~25 000 times)
  #budgetSeen = -1;
  #openWrites = OPEN_WRITES_PER_TURN;
  #turnEnd = false;

  // `budget` is how many more bytes the ledger can take: pending text beyond it is emitted at once and cut there.
  constructor(
    private readonly onLine: OnLine,
    private readonly budget: () => number,
  ) {}

  // A stream write. In Node a write is a flush: an unterminated line reaches the host as an open entry (continued by
  // the stream's next text), so a fragment written before a hang is in the result.
  write(text: string): void {
    if (text.length === 0) return;
    let start = 0;
    let nl = indexOf(text, '\n');
    while (nl >= 0) {
      this.#fragments[this.#fragmentCount] = slice(text, start, nl);
      this.#fragmentCount++;
      this.#emit(false);
      start = nl + 1;
      nl = indexOf(text, '\n', start);
    }
    if (start < text.length) {
      const tail = start === 0 ? text : slice(text, start);
      this.#fragments[this.#fragmentCount] = tail;
      this.#fragmentCount++;
      this.#pending += tail.length;
      if (this.#pending > this.#budgetSeen && this.#pending > (this.#budgetSeen = this.budget())) {
        this.#emit(false);
        return;
      }
      if (this.#openWrites > 0) {
        this.#openWrites--;
        this.#emit(true);
      } else if (this.#fragmentCount >= SEAL_AT) {
        this.#budgetSeen = -1;
        this.#blocks[this.#blockCount] = join(this.#fragments, '');
        this.#blockCount++;
        this.#fragments = [];
        this.#fragmentCount = 0;
        if (this.#blockCount >= SEAL_AT) {
          this.#blocks = [join(this.#blocks, '')];
          this.#blockCount = 1;
        }
      }
      this.#atTurnEnd();
    }
  }

  // Sends pending text as an open entry now (before a console call continues the same line).
  flushOpen(): void {
    if (this.#fragmentCount > 0 || this.#blockCount > 0) this.#emit(true);
  }

  // Emits an unterminated tail as its own entry (at settlement).
  flush(): void {
    if (this.#fragmentCount > 0 || this.#blockCount > 0) this.#emit(false);
  }

  // When this turn of the event loop ends, what is still pending goes out open and the per-turn allowance is renewed.
  #atTurnEnd(): void {
    if (this.#turnEnd) return;
    this.#turnEnd = true;
    setImmediateOf(() => {
      this.#turnEnd = false;
      this.#openWrites = OPEN_WRITES_PER_TURN;
      this.flushOpen();
    });
  }

  #emit(open: boolean): void {
    const fragments = join(this.#fragments, '');
    const line = this.#blockCount === 0 ? fragments : join(this.#blocks, '') + fragments;
    this.#fragments = [];
    this.#fragmentCount = 0;
    this.#blocks = [];
    this.#blockCount = 0;
    this.#pending = 0;
    this.#budgetSeen = -1;
    this.onLine(line, open);
  }
}
