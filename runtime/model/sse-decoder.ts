// Server-sent events (the WHATWG `text/event-stream` format) decoded incrementally: a model API's streamed reply as it
// arrives, or a whole logged stream at once. Only `event` and `data` matter here; `id`, `retry` and comments are
// skipped.

export interface SseEvent {
  // the `event:` field, when the stream names its events (Anthropic and Responses do, Chat Completions does not)
  event: string | undefined;
  // the `data:` lines joined with newlines, as the spec says
  data: string;
  // the 0-based line of the event's first `data:` line in everything pushed so far
  line: number;
}

export class SseDecoder {
  #pending = '';
  #line = 0;
  #event: string | undefined;
  #data: string[] = [];
  #dataLine = 0;
  // a `\r` ending the last chunk: a `\n` opening the next one belongs to the same line break
  #carriageReturn = false;

  // The events completed by this chunk of text (a line split across chunks waits for its end).
  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.#carriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.#carriageReturn = text.endsWith('\r');
    const lines = (this.#pending + text).split(/\r\n|\r|\n/);
    this.#pending = lines.pop() ?? '';
    const out: SseEvent[] = [];
    for (const line of lines) this.#take(line, out);
    return out;
  }

  // The stream ended: an event not followed by a blank line still counts (logs often drop the last one).
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.#pending !== '') this.#take(this.#pending, out);
    this.#pending = '';
    this.#dispatch(out);
    return out;
  }

  #take(line: string, out: SseEvent[]): void {
    const at = this.#line++;
    if (line === '') return this.#dispatch(out);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = (colon === -1 ? line : line.slice(0, colon)).trim();
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.#event = value;
    else if (field === 'data') {
      if (this.#data.length === 0) this.#dataLine = at;
      this.#data.push(value);
    }
  }

  #dispatch(out: SseEvent[]): void {
    if (this.#data.length > 0) out.push({ event: this.#event, data: this.#data.join('\n'), line: this.#dataLine });
    this.#data = [];
    this.#event = undefined;
  }
}

// Every event of a whole stream's text.
export function sseEvents(text: string): SseEvent[] {
  const decoder = new SseDecoder();
  return [...decoder.push(text), ...decoder.end()];
}
