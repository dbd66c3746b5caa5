import { z } from 'zod';
import { DeterministicSettingsSchema, NamespaceDescriptorSchema } from './binding-call.js';
import {
  BindingsLostFrameSchema,
  CallFrameSchema,
  DoneFrameSchema,
  LogFrameSchema,
  programWireFields,
  ReplyFrameSchema,
} from './program-wire.js';

// Control protocol between the host and the CPython runner (python/ptc_wire.py): newline-delimited JSON on fd 3,
// both directions. Handshake boot → boot-ack → run, then the program's frames (program-wire.ts, shared with Node)
// and one final done. A mirror test pins these message types and field names against the Python side.
export const PYTHON_CONTROL_FD = 3;

// Process-level setup, sent before the program is known (so a spare can be booted ahead of time).
export const PythonBootFrameSchema = z
  .object({
    type: z.literal('boot'),
    // base64 seccomp programs (runtime/sandbox/seccomp.ts) the runner installs on itself before boot-ack, in order
    filters: z.array(z.string()),
    // the program's private, writable temp dir (the sandbox's tmpfs /tmp, or a host dir when unconfined)
    tmpdir: z.string(),
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
    namespaces: z.array(NamespaceDescriptorSchema),
    maxOutputBytes: z.number().int().positive(),
    maxPendingCalls: z.number().int().positive(),
    // RLIMIT_CPU soft limit (hard = soft + 1, so SIGXCPU is seen before SIGKILL)
    cpuSeconds: z.number().int().positive(),
    // RLIMIT_AS from memoryMb
    addressSpaceBytes: z.number().int().positive(),
    cwd: z.string(),
    deterministic: z.optional(DeterministicSettingsSchema),
    // calls go straight to the run's bindings host on this descriptor (absent: on the control channel)
    bindingsFd: z.number().int().positive().optional(),
  })
  .strict();
export type PythonRunFrame = z.infer<typeof PythonRunFrameSchema>;

export const PythonBootAckSchema = z
  .object({ type: z.literal('boot-ack'), confined: z.boolean(), error: z.string().optional() })
  .strict();

export const PythonChildFrameSchema = z.discriminatedUnion('type', [
  PythonBootAckSchema,
  LogFrameSchema,
  CallFrameSchema,
  DoneFrameSchema,
]);
export type PythonChildFrame = z.infer<typeof PythonChildFrameSchema>;

// Message type → field names (plus the done error's fields and kinds), for the TS ↔ Python mirror test.
export function pythonWireFields(): {
  host: Record<string, string[]>;
  child: Record<string, string[]>;
  doneError: string[];
  doneKinds: string[];
} {
  const keys = (schema: { shape: Record<string, unknown> }): string[] => Object.keys(schema.shape).sort();
  const shared = programWireFields();
  return {
    host: { boot: keys(PythonBootFrameSchema), run: keys(PythonRunFrameSchema), ...shared.host },
    child: { 'boot-ack': keys(PythonBootAckSchema), ...shared.child },
    doneError: shared.doneError,
    doneKinds: shared.doneKinds,
  };
}

export { BindingsLostFrameSchema, ReplyFrameSchema };
