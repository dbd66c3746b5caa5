// Joins stream writes into completed lines; fragments are sealed in blocks so a 25 MB one-character drip stays linear.
const SEAL_AT = 1024;

export class LineBuffer {
  #fragments: string[] = [];
  #blocks: string[] = [];
  #pending = 0;
  // the ledger's remaining bytes as last read: it only shrinks, so a cached value errs on the generous side and is
  // re-read whenever pending text passes it and at every seal (25 million one-character writes read it ~25 000 times)
  #budgetSeen = -1;

  // `budget` is how many more bytes the ledger can take: pending text beyond it is emitted at once and cut there.
  constructor(
    private readonly onLine: (line: string) => void,
    private readonly budget: () => number,
  ) {}

  write(text: string): void {
    if (text.length === 0) return;
    let start = 0;
    let nl = text.indexOf('\n');
    while (nl >= 0) {
      this.#fragments.push(text.slice(start, nl));
      this.#emit();
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (start < text.length) {
      const tail = start === 0 ? text : text.slice(start);
      this.#fragments.push(tail);
      this.#pending += tail.length;
      if (this.#pending > this.#budgetSeen && this.#pending > (this.#budgetSeen = this.budget())) {
        this.#emit();
        return;
      }
      if (this.#fragments.length >= SEAL_AT) {
        this.#budgetSeen = -1;
        this.#blocks.push(this.#fragments.join(''));
        this.#fragments = [];
        if (this.#blocks.length >= SEAL_AT) this.#blocks = [this.#blocks.join('')];
      }
    }
  }

  // Emits an unterminated tail as its own entry (at settlement).
  flush(): void {
    if (this.#fragments.length > 0 || this.#blocks.length > 0) this.#emit();
  }

  #emit(): void {
    const line = this.#blocks.length === 0 ? this.#fragments.join('') : this.#blocks.join('') + this.#fragments.join('');
    this.#fragments = [];
    this.#blocks = [];
    this.#pending = 0;
    this.#budgetSeen = -1;
    this.onLine(line);
  }
}
