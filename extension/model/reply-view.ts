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
export class ReplyView {
  readonly #execution: vscode.NotebookCellExecution;
  readonly #language: Language;
  readonly #model: string;
  #pending: { turn: number; progress: ChatProgress } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #painting: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: { execution: vscode.NotebookCellExecution; language: Language; model: string }) {
    this.#execution = options.execution;
    this.#language = options.language;
    this.#model = options.model;
  }

  show(turn: number, progress: ChatProgress): void {
    if (this.#closed) return;
    this.#pending = { turn, progress };
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#painting = this.#painting.then(() => this.#paint());
    }, REPAINT_MS);
  }

  // No more repaints; resolves once a repaint under way has landed (so the caller's next output is the last word).
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#painting;
  }

  async #paint(): Promise<void> {
    const pending = this.#pending;
    if (this.#closed || pending === undefined) return;
    // a repaint that fails (a reply piece it cannot render, an execution VS Code already ended) must not stop the
    // ones after it: the chain of repaints would stay rejected and the cell frozen at its last picture
    try {
      const markdown = replyMarkdown(pending.turn, pending.progress, this.#language, this.#model);
      const meta: OutputMeta = { kind: 'stream' };
      await this.#execution.replaceOutput(
        new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(markdown, 'text/markdown')], { ptc: meta }),
      );
    } catch {
      // the next piece repaints the whole reply again
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
