// Metadata can be edited in the editor without going through the file schema: a run uses only the known keys
// that are valid (an invalid cassette name must never become a path).
export function notebookRunMetadata(raw: { readonly [key: string]: unknown }): NotebookMetadata {
  const bindings =
    typeof raw.bindings === 'string' && raw.bindings.trim() !== '' && !raw.bindings.includes('\0')
      ? raw.bindings
      : undefined;
  const mode = NotebookModeSchema.safeParse(raw.mode).data;
  return { ...(bindings === undefined ? {} : { bindings }), ...(mode === undefined ? {} : { mode }) };
}

export function cellRunMetadata(raw: { readonly [key: string]: unknown }): CellMetadata {
  const id = CellIdSchema.safeParse(raw.id).data;
  const mode = CellModeSchema.safeParse(raw.mode).data;
  const cassette = CellIdSchema.safeParse(raw.cassette).data;
  const limits = CellMetadataSchema.shape.limits.safeParse(raw.limits).data;
  return {
    ...(id === undefined ? {} : { id }),
    ...(mode === undefined ? {} : { mode }),
    ...(cassette === undefined ? {} : { cassette }),
    ...(limits === undefined ? {} : { limits }),
  };
}
import {
  CellIdSchema,
  CellMetadataSchema,
  CellModeSchema,
  NotebookModeSchema,
  type CellMetadata,
  type NotebookMetadata,
} from '../../runtime/index.js';
