import * as vscode from 'vscode';
import type { ChatRequest, Language } from '../../runtime/index.js';
import type { OutputMeta } from '../notebook/output-meta.js';
import { escapeMarkdown } from '../notebook/result-output.js';

type ChatProgress = Parameters<NonNullable<ChatRequest['onProgress']>>[0];

// one repaint of the task cell at most this often: a reply streams in hundreds of small pieces
const REPAINT_MS = 120;
// what the cell shows of a program still arriving (the whole program becomes its own cell when the reply ends)
const MAX_SHOWN_CHARS = 20_000;

// A task cell's output while the model's reply streams in: the reply's text and the program it is writing, repainted
// as they arrive. Never saved with the notebook (the run's summary replaces it).
// At most one repaint is in flight and none is queued behind it: each repaint is a round trip to the window (seconds
// on a loaded machine, measured in code-server), so queueing one per piece made the cell trail the stream by a minute
// and made the run's end (and Stop) wait for every stale repaint. Pieces that arrive meanwhile fold into the next.
export class ReplyView {
  readonly #execution: vscode.NotebookCellExecution;
  readonly #language: Language;
  readonly #model: string;
  #pending: { turn: number; progress: ChatProgress } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: Promise<void> | undefined;
  // the output the repaints update in place (its items replaced), so the window re-renders one output, not a new one
  #output: vscode.NotebookCellOutput | undefined;
  #lastPaint = 0;
  #closed = false;

  constructor(options: { execution: vscode.NotebookCellExecution; language: Language; model: string }) {
    this.#execution = options.execution;
    this.#language = options.language;
    this.#model = options.model;
  }

  show(turn: number, progress: ChatProgress): void {
    if (this.#closed) return;
    this.#pending = { turn, progress };
    this.#schedule();
  }

  // No more repaints; resolves once the repaint under way has landed (so the caller's next output is the last word).
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }

  // The first piece paints at once; later ones wait for the repaint under way and then at least REPAINT_MS.
  #schedule(): void {
    if (this.#timer !== undefined || this.#inFlight !== undefined || this.#pending === undefined) return;
    const wait = Math.max(0, this.#lastPaint + REPAINT_MS - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const pending = this.#pending;
      this.#pending = undefined;
      if (this.#closed || pending === undefined) return;
      this.#inFlight = this.#paint(pending).finally(() => {
        this.#inFlight = undefined;
        this.#lastPaint = performance.now();
        if (!this.#closed) this.#schedule();
      });
    }, wait);
  }

  async #paint(pending: { turn: number; progress: ChatProgress }): Promise<void> {
    // a repaint that fails (a reply piece it cannot render, an execution VS Code already ended) must not stop the
    // ones after it: the next piece repaints the whole reply again
    try {
      const markdown = replyMarkdown(pending.turn, pending.progress, this.#language, this.#model);
      const items = [vscode.NotebookCellOutputItem.text(markdown, 'text/markdown')];
      if (this.#output !== undefined) {
        await this.#execution.replaceOutputItems(items, this.#output);
        return;
      }
      const meta: OutputMeta = { kind: 'stream' };
      const output = new vscode.NotebookCellOutput(items, { ptc: meta });
      await this.#execution.replaceOutput(output);
      this.#output = output;
    } catch {
      // the output may be gone (cleared by VS Code): the next repaint replaces the cell's output whole
      this.#output = undefined;
    }
  }
}

// The markdown of a reply so far: a heading line, the text, and each tool call (a program as code in its language).
export function replyMarkdown(turn: number, progress: ChatProgress, language: Language, model: string): string {
  const parts = [`_${escapeMarkdown(vscode.l10n.t('Turn {0} · {1} is writing…', turn, model))}_`];
  if (progress.text.trim() !== '') parts.push(escapeMarkdown(clip(progress.text)));
  for (const call of progress.toolCalls) {
    const code = call.program;
    parts.push(code === undefined ? fenced(`${call.name}(${clip(call.input)})`, 'text') : fenced(clip(code), language));
  }
  return parts.join('\n\n');
}

function clip(text: string): string {
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}\n…` : text;
}

// A fence longer than any run of backticks in the text, so the program cannot close it early.
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}
