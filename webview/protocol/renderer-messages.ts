import * as z from 'zod/mini';
import { L10nBundleSchema } from './l10n-bundle.js';
import { FileLocationSchema, ProblemActionSchema } from './problem-payload.js';

// The notebook renderer's contribution id (package.json `contributes.notebookRenderer[0].id`).
export const RENDERER_ID = 'ptc-playground.result-renderer';

const RequestBase = { requestId: z.string().check(z.minLength(1), z.maxLength(64)) };

// Renderer → extension host. Every request carries an id the host echoes in its `ack`.
export const RendererToHostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('open-inspector'),
    ...RequestBase,
    outputId: z.string().check(z.minLength(1)),
    cellId: z.optional(z.string().check(z.minLength(1))),
  }),
  z.object({ type: z.literal('rerun'), ...RequestBase, cellId: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal('record'), ...RequestBase, cellId: z.string().check(z.minLength(1)) }),
  z.object({ type: z.literal('replay'), ...RequestBase, cellId: z.string().check(z.minLength(1)) }),
  // Accept as Expected: the shown run becomes the cell's expectation
  z.object({ type: z.literal('accept'), ...RequestBase, cellId: z.string().check(z.minLength(1)) }),
  // asks for the cell's state (has a cassette, is running); answered with a cell-state message
  z.object({ type: z.literal('cell-state-request'), ...RequestBase, cellId: z.string().check(z.minLength(1)) }),
  // a problem output's button (Set Notebook Bindings…, Pick Model…): the host runs its own command for it
  z.object({ type: z.literal('problem-action'), ...RequestBase, action: ProblemActionSchema }),
  // a file a problem output names, opened at its line
  z.object({ type: z.literal('open-file'), ...RequestBase, location: FileLocationSchema }),
  // asks for the display language's strings once per renderer activation; answered with an l10n message
  z.object({ type: z.literal('l10n-request'), ...RequestBase }),
]);
export type RendererToHostMessage = z.infer<typeof RendererToHostMessageSchema>;
export type RendererAction = RendererToHostMessage['type'];

// Extension host → renderer.
export const HostToRendererMessageSchema = z.discriminatedUnion('type', [
  // the outcome of one request; `message` is shown next to the buttons (e.g. "no cassette for this cell yet")
  z.object({
    type: z.literal('ack'),
    requestId: z.string().check(z.minLength(1), z.maxLength(64)),
    ok: z.boolean(),
    message: z.optional(z.string().check(z.maxLength(2_000))),
  }),
  // optional: lets the renderer disable Replay without a cassette and show that a cell is busy
  z.object({
    type: z.literal('cell-state'),
    cellId: z.string().check(z.minLength(1)),
    hasCassette: z.boolean(),
    running: z.boolean(),
    recording: z.optional(z.boolean()),
  }),
  // vscode.l10n.bundle (absent in English): the renderer re-renders its outputs in the display language
  z.object({ type: z.literal('l10n'), bundle: L10nBundleSchema }),
]);
export type HostToRendererMessage = z.infer<typeof HostToRendererMessageSchema>;

export type MessageParse<T> = { ok: true; message: T } | { ok: false; error: string };

// Validates one message received by the extension host from the renderer.
export function parseRendererToHost(data: unknown): MessageParse<RendererToHostMessage> {
  const parsed = RendererToHostMessageSchema.safeParse(data);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, error: parsed.error.issues[0]?.message ?? 'invalid message' };
}

// Validates one message received by the renderer from the extension host.
export function parseHostToRenderer(data: unknown): MessageParse<HostToRendererMessage> {
  const parsed = HostToRendererMessageSchema.safeParse(data);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, error: parsed.error.issues[0]?.message ?? 'invalid message' };
}
