import { z } from 'zod';
import { JsonValueSchema } from '../../protocol/json-value.js';
import { DescribedModuleSchema } from '../wire.js';

// The protocol between the browser's extension host and its bindings worker (the desktop's bindings host process,
// as a dedicated web worker): one JSON text per message, both directions. The worker runs the module's code, so
// everything it sends is decoded as hostile (lossless JSON, then these schemas, within LIMITS.maxFrameBytes).

const RunId = z.number().int().positive();
const CallId = z.number().int().positive();

// --- extension host → worker

export const ToBindingsWorkerSchema = z.discriminatedUnion('type', [
  // the module's JavaScript (TypeScript already stripped); `file` names it in messages
  z.object({ type: z.literal('load'), file: z.string(), code: z.string() }).strict(),
  // a run's functions in `mode`, their faults seeded by `seed`
  z
    .object({
      type: z.literal('open-run'),
      run: RunId,
      mode: z.enum(['mock', 'live']),
      seed: z.number().int().nonnegative(),
    })
    .strict(),
  z
    .object({
      type: z.literal('call'),
      run: RunId,
      id: CallId,
      global: z.string(),
      name: z.string(),
      args: JsonValueSchema,
    })
    .strict(),
  // the call must end now (its run settled, Stop): answered with `message` after its name, its handler's signal aborts
  z.object({ type: z.literal('stop'), run: RunId, id: CallId, message: z.string() }).strict(),
  z.object({ type: z.literal('close-run'), run: RunId }).strict(),
]);
export type ToBindingsWorker = z.infer<typeof ToBindingsWorkerSchema>;

// --- worker → extension host

const FailureDetailsSchema = z
  .object({ code: z.union([z.number(), z.string()]).optional(), data: z.optional(JsonValueSchema) })
  .strict();

const ProgressSchema = z
  .object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() })
  .strict();

export const FromBindingsWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('loaded'), module: DescribedModuleSchema }).strict(),
  z.object({ type: z.literal('load-failed'), message: z.string() }).strict(),
  // the worker's loop is free (a handler in a synchronous loop silences it)
  z.object({ type: z.literal('heartbeat') }).strict(),
  z.object({ type: z.literal('answer'), run: RunId, id: CallId, value: JsonValueSchema }).strict(),
  z
    .object({
      type: z.literal('failed'),
      run: RunId,
      id: CallId,
      message: z.string(),
      details: FailureDetailsSchema.optional(),
    })
    .strict(),
  // what the call's record gains while it runs: a broken output schema, a progress report
  z
    .object({
      type: z.literal('note'),
      run: RunId,
      id: CallId,
      schemaViolation: z.string().optional(),
      progress: ProgressSchema.optional(),
    })
    .strict(),
  // the module's warnings (an output schema broken, an MCP tool left out, what its code threw uncaught)
  z.object({ type: z.literal('warning'), message: z.string() }).strict(),
  // what the module's code wrote to its console
  z.object({ type: z.literal('log'), stream: z.enum(['stdout', 'stderr']), text: z.string() }).strict(),
]);
export type FromBindingsWorker = z.infer<typeof FromBindingsWorkerSchema>;

// The two frames that carry a value, written around its lossless JSON text (encoded once, checked and capped by the
// lossless encoder, and not encoded again); each parses as its schema above (worker-wire.test.ts).
export const callFrameText = (
  call: { run: number; id: number; global: string; name: string },
  argsText: string,
): string =>
  `{"type":"call","run":${call.run},"id":${call.id},"global":${JSON.stringify(call.global)},"name":${JSON.stringify(call.name)},"args":${argsText}}`;

export const answerFrameText = (run: number, id: number, valueText: string): string =>
  `{"type":"answer","run":${run},"id":${id},"value":${valueText}}`;
