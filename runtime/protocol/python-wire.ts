import { z } from 'zod';

// Control protocol between the host and the CPython runner (python/ptc_wire.py): newline-delimited JSON on fd 3,
// both directions. Handshake boot → boot-ack → run, then call/reply and log, and one final done.
// A mirror test pins these message types and field names against the Python side.
export const PYTHON_CONTROL_FD = 3;

const ErrorClassWire = z.object({ name: z.string(), memberNameProperty: z.string() }).strict();
const LayersWire = z.object({ filesystem: z.boolean(), childProcess: z.boolean() }).strict();

// Process-level setup, sent before the program is known (so a spare can be booted ahead of time).
export const PythonBootFrameSchema = z
  .object({
    type: z.literal('boot'),
    // OS layers the runner must apply before boot-ack
    confine: LayersWire,
    // the program's private, writable temp dir
    tmpdir: z.string(),
    // empty directory the confined root is assembled on
    root: z.string(),
    // the interpreter's site-packages directories, appended to sys.path (read-only inside the confined root)
    sitePackages: z.array(z.string()),
    // import asyncio before boot-ack (spares); a cold start imports it only for programs that need it
    preload: z.boolean(),
  })
  .strict();
export type PythonBootFrame = z.infer<typeof PythonBootFrameSchema>;

export const PythonRunFrameSchema = z
  .object({
    type: z.literal('run'),
    program: z.string(),
    namespaces: z.array(z.object({ global: z.string(), names: z.array(z.string()), errorClass: ErrorClassWire.optional() }).strict()),
    maxOutputBytes: z.number().int().positive(),
    maxPendingCalls: z.number().int().positive(),
    // RLIMIT_CPU soft limit (hard = soft + 1, so SIGXCPU is seen before SIGKILL)
    cpuSeconds: z.number().int().positive(),
    // RLIMIT_AS from memoryMb
    addressSpaceBytes: z.number().int().positive(),
    cwd: z.string(),
    deterministic: z.object({ epochMs: z.number().int().nonnegative(), seed: z.number().int().nonnegative() }).strict().optional(),
  })
  .strict();
export type PythonRunFrame = z.infer<typeof PythonRunFrameSchema>;

export const PythonReplyFrameSchema = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('reply'), id: z.number().int().positive(), ok: z.literal(true), value: z.unknown() }).strict(),
  z.object({ type: z.literal('reply'), id: z.number().int().positive(), ok: z.literal(false), message: z.string() }).strict(),
]);

const LocationWire = z.object({ line: z.number().int().positive(), column: z.number().int().positive().optional() }).strict();

const DoneErrorWire = z
  .object({ kind: z.enum(['exception', 'invalid-output', 'output-limit']), message: z.string(), location: LocationWire.optional() })
  .strict();

export const PythonBootAckSchema = z
  .object({ type: z.literal('boot-ack'), filesystem: z.boolean(), childProcess: z.boolean(), error: z.string().optional() })
  .strict();

// The runner may only report failures it observes itself; timeouts, aborts and deaths are host observations.
export const PythonDoneSchema = z
  .object({
    type: z.literal('done'),
    value: z.unknown().optional(),
    error: DoneErrorWire.optional(),
  })
  .strict()
  .refine((f) => !(f.error !== undefined && 'value' in f), { message: 'done carries both a value and an error' });

export const PythonChildFrameSchema = z.discriminatedUnion('type', [
  PythonBootAckSchema,
  // `open`: an unterminated line the program flushed; the stream's next log text continues the same entry
  z.object({ type: z.literal('log'), stream: z.enum(['stdout', 'stderr']), text: z.string(), open: z.literal(true).optional() }).strict(),
  z.object({ type: z.literal('call'), id: z.number().int().positive(), global: z.string(), name: z.string(), args: z.unknown() }).strict(),
  PythonDoneSchema,
]);
export type PythonChildFrame = z.infer<typeof PythonChildFrameSchema>;

// Message type → field names (plus the done error's fields and kinds), for the TS ↔ Python mirror test.
export function pythonWireFields(): { host: Record<string, string[]>; child: Record<string, string[]>; doneError: string[]; doneKinds: string[] } {
  const keys = (schema: { shape: Record<string, unknown> }): string[] => Object.keys(schema.shape).sort();
  const reply = [...new Set(PythonReplyFrameSchema.options.flatMap((o) => keys(o)))].sort();
  const child: Record<string, string[]> = {};
  for (const option of PythonChildFrameSchema.options) {
    const fields = keys(option as unknown as { shape: Record<string, unknown> });
    const type = (option as unknown as { shape: { type: { value: string } } }).shape.type.value;
    child[type] = fields;
  }
  return {
    host: { boot: keys(PythonBootFrameSchema), run: keys(PythonRunFrameSchema), reply },
    child,
    doneError: keys(DoneErrorWire),
    doneKinds: [...DoneErrorWire.shape.kind.options],
  };
}
