import * as z from 'zod/mini';
import { CallPauseSchema } from './call-pause.js';
import { JsonValueSchema } from './json-value.js';

// The one call vocabulary (browser-safe, zod/mini): every shape a binding call takes is derived here from one
// definition, the call record, so a field is named, typed and documented once. The forms:
//   CallRecordSchema     the call as a result shows it (run-result.ts)
//   CallFrameSchema      the call a program child sends (program-wire.ts adds its frame type)
//   StartedCallSchema    the call the bindings host reports before its handler runs
//   FinishedCallSchema   the answer the bindings host reports after it
//   ExpectedCallSchema   what a call should do (an imported cell's `then`), and CassetteCallSchema, its recording
// Wire forms carry their payloads (`args`, `value`, `errorData`) as decoded lossless JSON, so they are not walked a
// second time (a 200 000-deep argument is checked once, by the decoder); the record and cassette forms check them.
// The fast hand-written reader and writer of the bindings host's reports sit beside this file (call-report-codec.ts),
// pinned to these schemas by test/runtime/protocol/call-report-codec.test.ts.

const count = (): z.ZodMiniNumber<number> => z.int().check(z.nonnegative());
const ms = (): z.ZodMiniNumber<number> => z.number().check(z.nonnegative());
const callId = (): z.ZodMiniNumber<number> => z.int().check(z.positive());

// --- the settings, error class and namespace descriptor every boundary shares

// Frozen clock and seeded random values for reproducible replays (`--deterministic`).
export const DeterministicSettingsSchema = z.strictObject({ epochMs: count(), seed: count() });
export type DeterministicSettings = z.infer<typeof DeterministicSettingsSchema>;

// The class a namespace's failed calls throw in the program; `memberNameProperty` names the failing function on it.
export const ErrorClassSchema = z.strictObject({ name: z.string(), memberNameProperty: z.string() });
export type ErrorClass = z.infer<typeof ErrorClassSchema>;

// What a program child (and replay) knows of a namespace: its global, its function names, its error class.
export const NamespaceDescriptorSchema = z.strictObject({
  global: z.string(),
  names: z.array(z.string()),
  errorClass: z.optional(ErrorClassSchema),
});
export type NamespaceDescriptor = z.infer<typeof NamespaceDescriptorSchema>;

// The descriptor of a namespace given its functions (handlers never cross a process boundary).
export function describeNamespace(ns: {
  global: string;
  functions: object;
  errorClass?: ErrorClass;
}): NamespaceDescriptor {
  return {
    global: ns.global,
    names: Object.keys(ns.functions),
    ...(ns.errorClass ? { errorClass: ns.errorClass } : {}),
  };
}

// --- progress and failure details

// One progress report of a running call (MCP notifications/progress).
export const ProgressNoteSchema = z.object({
  progress: z.number(),
  total: z.optional(z.number()),
  message: z.optional(z.string()),
});
export type ProgressNote = z.infer<typeof ProgressNoteSchema>;
// ...placed on the run's time axis (`atMs`)
export const ProgressMarkSchema = z.object({ atMs: ms(), ...ProgressNoteSchema.shape });
export type ProgressMark = z.infer<typeof ProgressMarkSchema>;

// A failed call's `error.code` in the program.
export const ErrorCodeSchema = z.union([z.number(), z.string()]);

// --- the call

export const CallRecordSchema = z.object({
  id: count(),
  global: z.string(),
  name: z.string(),
  args: JsonValueSchema,
  ok: z.boolean(),
  value: z.optional(JsonValueSchema),
  message: z.optional(z.string()),
  startedAtMs: ms(),
  durationMs: ms(),
  // set when the answer came from a cassette rather than a handler
  replayed: z.optional(z.boolean()),
  // set when a handler result violated the declared output schema
  schemaViolation: z.optional(z.string()),
  // a failed call's details, set on the error the program caught (`error.code`, `error.data`)
  errorCode: z.optional(ErrorCodeSchema),
  errorData: z.optional(JsonValueSchema),
  // progress the call reported while it ran
  progress: z.optional(z.array(ProgressMarkSchema)),
  progressCount: z.optional(count()),
  // the call waited for a decision before its handler ran (a breakpoint, an approval, a fork's prefix)
  pause: z.optional(CallPauseSchema),
});
export type CallRecord = z.infer<typeof CallRecordSchema>;

// Wire payloads: already lossless JSON when decoded (`args` must still be present).
const wirePayloads = { args: z.unknown(), value: z.optional(z.unknown()), errorData: z.optional(z.unknown()) };

// The call a program makes: its id (positive on the wire) and what it calls with which argument.
export const BindingCallSchema = z.strictObject({
  ...z.pick(CallRecordSchema, { id: true, global: true, name: true, args: true }).shape,
  id: callId(),
  args: wirePayloads.args,
});
export type BindingCall = z.infer<typeof BindingCallSchema>;

// Reported when the bindings host takes the call; `startedAtMs` is on the run's axis and may sit a hair before 0
// (the host's clock origin is the runtime's, carried over as epoch milliseconds).
export const StartedCallSchema = z.strictObject({ ...BindingCallSchema.shape, startedAtMs: z.number() });
export type StartedCall = z.infer<typeof StartedCallSchema>;

// Reported when the call is answered.
export const FinishedCallSchema = z.strictObject({
  ...z.omit(CallRecordSchema, {
    global: true,
    name: true,
    args: true,
    startedAtMs: true,
    replayed: true,
    pause: true,
  }).shape,
  id: callId(),
  value: wirePayloads.value,
  errorData: wirePayloads.errorData,
  progress: z.optional(z.array(z.strictObject(ProgressMarkSchema.shape))),
});
export type FinishedCall = z.infer<typeof FinishedCallSchema>;

// What a call should do: it is answered with a value (`ok`), refused with a message, or never answered (`pending`).
// Notebook files are hostile input too: readers validate an imported cell's `then` with this before using it.
export const ExpectedCallSchema = z.object({
  ...z.pick(CallRecordSchema, { global: true, name: true, args: true, ok: true, value: true, message: true }).shape,
  pending: z.optional(z.literal(true)),
});
export type ExpectedCall = z.infer<typeof ExpectedCallSchema>;

// One recorded call of a cassette: the expectation plus what replay gives back (the failure's details as `code` and
// `data`, its progress without times) and how long it took.
export const CassetteCallSchema = z
  .strictObject({
    ...ExpectedCallSchema.shape,
    // the value already violated the output schema when it was recorded
    schemaViolation: CallRecordSchema.shape.schemaViolation,
    // a failure's details, set on the program's error again when replayed
    code: CallRecordSchema.shape.errorCode,
    data: CallRecordSchema.shape.errorData,
    // the progress the call reported, reported again when replayed
    progress: z.optional(z.array(z.strictObject(ProgressNoteSchema.shape))),
    // the decision the call waited for (an approval, a breakpoint's edit): a replay reproduces it without asking
    pause: CallRecordSchema.shape.pause,
    durationMs: CallRecordSchema.shape.durationMs,
  })
  .check(
    z.superRefine((call, ctx) => {
      if (call.pending === true) {
        if (call.ok || call.value !== undefined || call.message !== undefined)
          ctx.addIssue({ code: 'custom', message: 'a pending call has ok false and neither value nor message' });
      } else if (call.ok) {
        if (!('value' in call) || call.value === undefined)
          ctx.addIssue({ code: 'custom', message: 'ok is true but "value" is missing' });
        if (call.message !== undefined)
          ctx.addIssue({ code: 'custom', message: 'ok is true but a "message" is given' });
      } else {
        if (call.message === undefined)
          ctx.addIssue({ code: 'custom', message: 'ok is false but "message" is missing' });
        if (call.value !== undefined) ctx.addIssue({ code: 'custom', message: 'ok is false but a "value" is given' });
      }
      if (call.ok && (call.code !== undefined || call.data !== undefined))
        ctx.addIssue({ code: 'custom', message: 'ok is true but "code" or "data" is given' });
    }),
  );
export type CassetteCall = z.infer<typeof CassetteCallSchema>;
