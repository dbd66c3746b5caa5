import { z } from 'zod';
import { ErrorClassSchema, FinishedCallSchema, StartedCallSchema } from '../protocol/binding-call.js';
import {
  ApprovalPolicySchema,
  CallDecisionSchema,
  CallGateSpecSchema,
  PauseReasonSchema,
} from '../protocol/call-pause.js';

// Control protocol between the runtime and its bindings host process: length-prefixed frames (channel/frame-codec.ts)
// on the host's fd 3, both directions. The host runs the user's code, so everything it sends is decoded as hostile.
export const HOST_CONTROL_FD = 3;

// File in the host's private dir (beside its socket) recording started calls not yet reported: JSON lines
// `{"run":N,"call":<started call>}`, read by the runtime when the host hung or died.
export const FLIGHT_RECORD = 'in-flight.jsonl';

// First line a runtime writes on a program child's bindings connection, before the child owns it.
export const CHANNEL_HELLO_PREFIX = 'ptc-bindings ';

// --- runtime → host

export const HostInitSchema = z
  .object({
    type: z.literal('init'),
    // absolute path of the bindings module
    module: z.string(),
    // Unix socket the host listens on for program children's bindings connections
    socketPath: z.string(),
  })
  .strict();

const OpenRunSchema = z
  .object({
    type: z.literal('open-run'),
    run: z.number().int().positive(),
    // the hello token of the child connection this run's calls arrive on
    token: z.string(),
    mode: z.enum(['mock', 'live']),
    seed: z.number().int().nonnegative(),
    // the child's framing: Node children use length-prefixed frames, Python children JSON lines
    codec: z.enum(['frames', 'lines']),
    maxPendingCalls: z.number().int().positive(),
    maxCalls: z.number().int().positive().optional(),
    // the run's start as wall-clock epoch milliseconds, so call records share the runtime's time axis
    startedAtEpochMs: z.number(),
    // which calls wait for the runtime's decision before their handler runs
    gate: z.optional(CallGateSpecSchema),
  })
  .strict();
export type OpenRunFrame = z.infer<typeof OpenRunSchema>;

export const ToHostFrameSchema = z.discriminatedUnion('type', [
  HostInitSchema,
  OpenRunSchema,
  z.object({ type: z.literal('close-run'), run: z.number().int().positive() }).strict(),
  z.object({ type: z.literal('interrupt') }).strict(),
  z.object({ type: z.literal('drift'), request: z.number().int().positive(), cassette: z.unknown() }).strict(),
  // how a held call goes on
  z
    .object({
      type: z.literal('decide'),
      run: z.number().int().positive(),
      id: z.number().int().positive(),
      decision: CallDecisionSchema,
    })
    .strict(),
  // where a value a person wants a call answered with breaks the function's output schema
  z
    .object({
      type: z.literal('check-answer'),
      request: z.number().int().positive(),
      global: z.string(),
      name: z.string(),
      value: z.unknown(),
    })
    .strict(),
  z.object({ type: z.literal('shutdown') }).strict(),
]);
export type ToHostFrame = z.infer<typeof ToHostFrameSchema>;

// --- host → runtime

const JsonObject = z.record(z.string(), z.unknown());

// What the host tells about one function: never its handlers, only what the SDK, replay and the UI need.
export const DescribedFunctionSchema = z
  .object({
    description: z.string().optional(),
    input: JsonObject.optional(),
    output: JsonObject.optional(),
    // the result type without an output schema: MCP content items, or text
    returns: z.enum(['mcp-content', 'text']).optional(),
    // the module's approval policy for the function's calls
    approval: z.optional(ApprovalPolicySchema),
  })
  .strict();
export type DescribedFunction = z.infer<typeof DescribedFunctionSchema>;

export const DescribedNamespaceSchema = z
  .object({
    errorClass: z.optional(ErrorClassSchema),
    // the namespace's functions are an MCP server's tools
    mcp: z.boolean().optional(),
    // the MCP server could not start: `functions` holds only the module's overrides, `problem` says why
    toolsUnlisted: z.literal(true).optional(),
    problem: z.string().optional(),
    // MCP tools left out (an invalid schema, task-only), by name, with the reason: the model is told
    unavailable: z.record(z.string(), z.string()).optional(),
    functions: z.record(z.string(), DescribedFunctionSchema),
  })
  .strict();
export type DescribedNamespace = z.infer<typeof DescribedNamespaceSchema>;

export const DescribedModuleSchema = z
  .object({ path: z.string(), namespaces: z.record(z.string(), DescribedNamespaceSchema) })
  .strict();
export type DescribedModule = z.infer<typeof DescribedModuleSchema>;

export const FromHostFrameSchema = z.discriminatedUnion('type', [
  // the process is up and starts importing the module (its start-up is not the module's load time)
  z.object({ type: z.literal('loading') }).strict(),
  z.object({ type: z.literal('loaded'), module: DescribedModuleSchema }).strict(),
  z.object({ type: z.literal('load-failed'), message: z.string() }).strict(),
  z.object({ type: z.literal('heartbeat') }).strict(),
  // started calls are reported before their handlers run, so a handler that never returns is still named
  z
    .object({
      type: z.literal('calls'),
      run: z.number().int().positive(),
      started: z.array(StartedCallSchema).optional(),
      finished: z.array(FinishedCallSchema).optional(),
    })
    .strict(),
  // the run must end: a protocol violation, or its call budget spent
  z
    .object({
      type: z.literal('protocol'),
      run: z.number().int().positive(),
      message: z.string(),
      kind: z.enum(['call-limit']).optional(),
    })
    .strict(),
  z.object({ type: z.literal('warning'), run: z.number().int().positive().optional(), message: z.string() }).strict(),
  z.object({ type: z.literal('run-closed'), run: z.number().int().positive() }).strict(),
  z.object({ type: z.literal('interrupted'), calls: z.number().int().nonnegative() }).strict(),
  z.object({ type: z.literal('drift'), request: z.number().int().positive(), warnings: z.array(z.string()) }).strict(),
  // a call the run's gate stopped waits for a decision (its start was reported first)
  z
    .object({
      type: z.literal('paused'),
      run: z.number().int().positive(),
      id: z.number().int().positive(),
      reason: PauseReasonSchema,
    })
    .strict(),
  z
    .object({
      type: z.literal('answer-checked'),
      request: z.number().int().positive(),
      problems: z.array(z.string()),
    })
    .strict(),
]);
export type FromHostFrame = z.infer<typeof FromHostFrameSchema>;
