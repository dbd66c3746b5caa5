import { z } from 'zod';
import type { CodeRunSpec } from '../api.js';
import { DeterministicSettingsSchema, describeNamespace, NamespaceDescriptorSchema } from './binding-call.js';
import { CallFrameSchema, DoneFrameSchema, LogFrameSchema } from './program-wire.js';

// Control protocol between the host and the Node child (descriptors in node-fds.ts), one JSON object a frame.
// The program's frames (log, call, done, reply, bindings-lost) are shared with Python: program-wire.ts.
export { NODE_CHILD_READ_FD, NODE_CHILD_WRITE_FD } from './node-fds.js';
export { ReplyFrameSchema, type ReplyFrame } from './program-wire.js';

export const BootFrameSchema = z
  .object({
    type: z.literal('boot'),
    code: z.string(),
    namespaces: z.array(NamespaceDescriptorSchema),
    maxOutputBytes: z.number().int().positive(),
    maxPendingCalls: z.number().int().positive(),
    tmpdir: z.string(),
    // the run is sandboxed: V8 run-time flags and trace_events are taken from the program (unconfined runs keep them)
    confined: z.boolean(),
    // fixed clock and seeded random values (deterministic replays)
    deterministic: z.optional(DeterministicSettingsSchema),
    // calls go straight to the run's bindings host on this descriptor (absent: on the control channel)
    bindingsFd: z.number().int().positive().optional(),
    // the RLIMIT_CPU soft limit the child inherited (seconds): rechecked at settlement, since a program can trap
    // SIGXCPU
    cpuSeconds: z.number().int().positive().optional(),
    // the quickjs engine's own limits: its interrupt handler's deadline and its heap (a Node child has the host's
    // deadline and --max-old-space-size)
    timeoutMs: z.number().int().positive().optional(),
    memoryMb: z.number().int().positive().optional(),
  })
  .strict();
export type BootFrame = z.infer<typeof BootFrameSchema>;

// A run's boot frame: its program, namespaces and output bounds from the spec, and what the embedding adds (where the
// child's temp dir is, whether it is confined, its bindings connection, the engine's own limits).
export function bootFrame(
  spec: CodeRunSpec,
  code: string,
  place: Omit<BootFrame, 'type' | 'code' | 'namespaces' | 'maxOutputBytes' | 'maxPendingCalls' | 'deterministic'>,
): BootFrame {
  return {
    type: 'boot',
    code,
    namespaces: spec.bindings.map(describeNamespace),
    maxOutputBytes: spec.maxOutputBytes,
    maxPendingCalls: spec.maxPendingCalls,
    ...place,
    ...(spec.deterministic === undefined ? {} : { deterministic: spec.deterministic }),
  };
}

export const ChildFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  LogFrameSchema,
  CallFrameSchema,
  DoneFrameSchema,
]);
export type ChildFrame = z.infer<typeof ChildFrameSchema>;
