import { z } from 'zod';
import { LanguageSchema, RunResultSchema } from '../protocol/run-result.js';
import { ExpectationSchema } from './expectation.js';
import { ApprovalPolicySchema } from '../protocol/call-pause.js';

// The on-disk `.ptcnb` format (version 1); unknown metadata keys are kept, unknown structural keys are errors.
export const NOTEBOOK_FORMAT_VERSION = 1;
export const NOTEBOOK_FILE_EXTENSION = '.ptcnb';

export const NotebookModeSchema = z.enum(['mock', 'live']);
export type NotebookMode = z.infer<typeof NotebookModeSchema>;

// per-cell override: `record` runs live handlers and writes the cassette, `replay` serves calls from it
export const CellModeSchema = z.enum(['mock', 'live', 'record', 'replay']);
export type CellMode = z.infer<typeof CellModeSchema>;

// cell ids name cassette files, so they are restricted to a portable file-name alphabet
export const CellIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    'expected 1–64 letters, digits, "-" or "_", starting with a letter or digit',
  );

export const NotebookMetadataSchema = z.looseObject({
  bindings: z
    .string()
    .min(1, 'expected a path to a bindings module')
    .refine((p) => !p.includes('\0'), 'must not contain NUL')
    .optional(),
  mode: NotebookModeSchema.optional(),
  // false keeps outputs out of the file whatever the editor's setting (a committed example stays as committed)
  saveOutputs: z.boolean().optional(),
  // approval policies by binding (`"tools.send": "ask"`), over the bindings module's own (docs/debugging.md)
  approvals: z
    .record(z.string().regex(/^[^.]+\.[^.]+$/, 'expected a binding as namespace.function'), ApprovalPolicySchema)
    .optional(),
});
export type NotebookMetadata = z.infer<typeof NotebookMetadataSchema>;

export const CellMetadataSchema = z.looseObject({
  id: CellIdSchema.optional(),
  mode: CellModeSchema.optional(),
  // cassette name to record to / replay from, when not the cell's own id
  cassette: CellIdSchema.optional(),
  // the cell's own limits win over the notebook-wide ones (settings, CLI flags); resolve() still caps them
  limits: z
    .strictObject({
      timeoutMs: z.int().positive().optional(),
      maxOutputBytes: z.int().positive().optional(),
      memoryMb: z.int().positive().optional(),
      tmpMb: z.int().positive().optional(),
      // binding calls per run: the cell's own budget (a live cell that must page further than the default)
      maxCalls: z.int().positive().optional(),
      // the engine this cell runs on (a cell that needs Node built-ins: native; one that must run isolated: wasm)
      engine: z.enum(['auto', 'native', 'wasm']).optional(),
    })
    .optional(),
  // what a run of this cell must produce (`ptc test`, the Test Explorer, Accept as Expected): docs/testing.md
  expect: ExpectationSchema.optional(),
});
export type CellMetadata = z.infer<typeof CellMetadataSchema>;

export const SavedOutputSchema = z.discriminatedUnion('kind', [
  // `note`: what was left out to keep the result within the per-cell output budget (output-budget.ts)
  z.strictObject({ kind: z.literal('result'), result: RunResultSchema, note: z.string().optional() }),
  // the cell could not run (bindings module failed to load, missing cassette, ...)
  z.strictObject({ kind: z.literal('error'), message: z.string() }),
]);
export type SavedOutput = z.infer<typeof SavedOutputSchema>;

export const CodeCellSchema = z.strictObject({
  kind: z.literal('code'),
  language: LanguageSchema,
  source: z.string(),
  metadata: CellMetadataSchema.optional(),
  outputs: z.array(SavedOutputSchema).optional(),
});
export type CodeCell = z.infer<typeof CodeCellSchema>;

export const MarkdownCellSchema = z.strictObject({
  kind: z.literal('markdown'),
  source: z.string(),
  metadata: CellMetadataSchema.optional(),
});
export type MarkdownCell = z.infer<typeof MarkdownCellSchema>;

// A task in plain words for a model: running it asks the selected model for a program (docs/models.md).
export const TaskCellSchema = z.strictObject({
  kind: z.literal('task'),
  source: z.string(),
  metadata: CellMetadataSchema.optional(),
});
export type TaskCell = z.infer<typeof TaskCellSchema>;

export const NotebookCellSchema = z.discriminatedUnion('kind', [CodeCellSchema, MarkdownCellSchema, TaskCellSchema]);
export type NotebookCell = z.infer<typeof NotebookCellSchema>;

export const NotebookFileSchema = z.strictObject({
  version: z.literal(NOTEBOOK_FORMAT_VERSION),
  metadata: NotebookMetadataSchema.optional(),
  cells: z.array(NotebookCellSchema),
});
export type NotebookFile = z.infer<typeof NotebookFileSchema>;

// Known keys in the order they are written; anything else follows in its original order.
export const KEY_ORDER = {
  file: ['version', 'metadata', 'cells'],
  notebookMetadata: ['bindings', 'mode', 'approvals'],
  cell: ['kind', 'language', 'source', 'metadata', 'outputs'],
  cellMetadata: ['id', 'mode', 'cassette', 'limits', 'expect'],
  output: ['kind', 'result', 'note', 'message'],
  result: Object.keys(RunResultSchema.shape),
} as const;
