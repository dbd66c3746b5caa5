// Bounds on what a transcript may make the importer do; every byte of a transcript is treated as hostile.
export const IMPORT_LIMITS = {
  // one transcript file (JSON, JSONL or a request/response log)
  maxFileBytes: 64 * 1024 * 1024,
  // nesting of any JSON value; real transcripts stay far below (tool arguments included)
  maxDepth: 256,
  // JSONL records (lines) in one file
  maxRecords: 500_000,
  // programs imported from all files together
  maxPrograms: 2_000,
  // binding calls one program may have made
  maxCallsPerProgram: 10_000,
  // JSON embedded in strings (request bodies, `arguments`) is parsed under the same depth limit and this size
  maxEmbeddedJsonBytes: 64 * 1024 * 1024,
  // distinct secret strings collected for scrubbing (more are still redacted by pattern)
  maxCollectedSecrets: 1_000,
} as const;
