import { z } from 'zod';
import { ExpectedCallSchema } from '../protocol/binding-call.js';
import { JsonValueSchema } from '../protocol/json-value.js';
import { FailureKindSchema } from '../protocol/run-result.js';
import { TRANSCRIPT_FORMATS } from './transcript-model.js';

// `metadata.imported.then` of an imported cell: what the program did in the transcript. Notebook files are hostile
// input too, so readers validate it with this schema before using it. Its calls are expectations (binding-call.ts).
export const ThenCallSchema = ExpectedCallSchema;
export type ThenCall = z.infer<typeof ThenCallSchema>;

export const ThenRecordSchema = z.object({
  compare: z.enum(['stdout', 'text', 'model-text', 'result']),
  logs: z.array(z.string()),
  stderrLogs: z.array(z.number().int().nonnegative()).optional(),
  value: z.optional(JsonValueSchema),
  error: z.object({ kind: FailureKindSchema, message: z.string() }).optional(),
  modelText: z.string().optional(),
  skipped: z.string().optional(),
  calls: z.array(ThenCallSchema),
});
export type ThenRecord = z.infer<typeof ThenRecordSchema>;

export const ImportedMetaSchema = z.looseObject({
  format: z.enum(TRANSCRIPT_FORMATS),
  file: z.string(),
  line: z.number().int().positive(),
  programId: z.string().optional(),
  model: z.string().optional(),
  headerLines: z.number().int().nonnegative().optional(),
  unreproducible: z.array(z.string()).optional(),
  notes: z.array(z.string()).optional(),
  then: ThenRecordSchema.optional(),
});
export type ImportedMeta = z.infer<typeof ImportedMetaSchema>;

// A cell's import record, or undefined when the cell was not imported or its record is unreadable.
export function importedMetaOf(cellMetadata: unknown): ImportedMeta | undefined {
  if (cellMetadata === null || typeof cellMetadata !== 'object' || !Object.hasOwn(cellMetadata, 'imported'))
    return undefined;
  const parsed = ImportedMetaSchema.safeParse((cellMetadata as Record<string, unknown>).imported);
  return parsed.success ? parsed.data : undefined;
}
