// The VS Code data classes the serializer and output builders use, with the same fields and mime types as the
// real API (vscode.d.ts 1.95), so extension logic can be unit-tested in plain Node. Not a mock of the runtime.
import { untranslated } from '../../../extension/l10n.js';

export enum NotebookCellKind {
  Markup = 1,
  Code = 2,
}

const encoder = new TextEncoder();

export class NotebookCellOutputItem {
  static text(value: string, mime = 'text/plain'): NotebookCellOutputItem {
    return new NotebookCellOutputItem(encoder.encode(value), mime);
  }
  static json(value: unknown, mime = 'text/x-json'): NotebookCellOutputItem {
    return NotebookCellOutputItem.text(JSON.stringify(value, undefined, '\t'), mime);
  }
  static stdout(value: string): NotebookCellOutputItem {
    return NotebookCellOutputItem.text(value, 'application/vnd.code.notebook.stdout');
  }
  static stderr(value: string): NotebookCellOutputItem {
    return NotebookCellOutputItem.text(value, 'application/vnd.code.notebook.stderr');
  }
  static error(value: Error): NotebookCellOutputItem {
    return NotebookCellOutputItem.json(
      { name: value.name, message: value.message, stack: value.stack },
      'application/vnd.code.notebook.error',
    );
  }
  constructor(
    public data: Uint8Array,
    public mime: string,
  ) {}
}

let nextOutputId = 1;

export class NotebookCellOutput {
  id: string;
  items: NotebookCellOutputItem[];
  metadata?: { [key: string]: unknown };
  constructor(
    items: NotebookCellOutputItem[],
    idOrMetadata?: string | { [key: string]: unknown },
    metadata?: { [key: string]: unknown },
  ) {
    this.items = items;
    if (typeof idOrMetadata === 'string') {
      this.id = idOrMetadata;
      this.metadata = metadata;
    } else {
      this.id = `output-${nextOutputId++}`;
      this.metadata = idOrMetadata ?? metadata;
    }
  }
}

export class NotebookCellData {
  kind: NotebookCellKind;
  value: string;
  languageId: string;
  outputs?: NotebookCellOutput[];
  metadata?: { [key: string]: unknown };
  executionSummary?: { executionOrder?: number; success?: boolean; timing?: { startTime: number; endTime: number } };
  constructor(kind: NotebookCellKind, value: string, languageId: string) {
    this.kind = kind;
    this.value = value;
    this.languageId = languageId;
  }
}

export class NotebookData {
  cells: NotebookCellData[];
  metadata?: { [key: string]: unknown };
  constructor(cells: NotebookCellData[]) {
    this.cells = cells;
  }
}

// What VS Code does to a notebook between deserialize and serialize: a structured JSON copy of the model.
export function throughVsCode(data: NotebookData): NotebookData {
  const copy = new NotebookData(
    data.cells.map((cell) => {
      const c = new NotebookCellData(cell.kind, cell.value, cell.languageId);
      c.metadata = JSON.parse(JSON.stringify(cell.metadata ?? {})) as { [key: string]: unknown };
      c.outputs = (cell.outputs ?? []).map(
        (o) =>
          new NotebookCellOutput(
            o.items.map((i) => new NotebookCellOutputItem(new Uint8Array(i.data), i.mime)),
            o.id,
            JSON.parse(JSON.stringify(o.metadata ?? {})) as { [key: string]: unknown },
          ),
      );
      return c;
    }),
  );
  copy.metadata = JSON.parse(JSON.stringify(data.metadata ?? {})) as { [key: string]: unknown };
  return copy;
}

// vscode.l10n without a loaded bundle: English with {n} placeholders filled
export const l10n = { t: untranslated, bundle: undefined };
