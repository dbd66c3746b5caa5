import * as z from 'zod/mini';
import { jsonText } from '../../runtime/json/json-text.js';
import { ResultPayloadSchema } from './result-payload.js';
import type { MessageParse } from './renderer-messages.js';

// The WebviewPanel view type (also `onWebviewPanel:<viewType>` and the panel serializer's id).
export const INSPECTOR_VIEW_TYPE = 'ptc-playground.inspector';

// One run the inspector can show: a cell's execution or a cassette loaded from disk.
export const InspectorRunSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  // shown in the run pickers, e.g. "cell 3 · run 4 · live"
  label: z.string().check(z.minLength(1), z.maxLength(500)),
  source: z.enum(['cell', 'cassette']),
  // ISO timestamp of when the run finished (or the cassette was recorded)
  createdAt: z.optional(z.string().check(z.maxLength(64))),
  payload: ResultPayloadSchema,
});
export type InspectorRun = z.infer<typeof InspectorRunSchema>;

// Extension host → inspector panel.
export const HostToInspectorMessageSchema = z.discriminatedUnion('type', [
  // replaces the run list, e.g. when the panel opens for a cell
  z.object({ type: z.literal('load'), runs: z.array(InspectorRunSchema).check(z.maxLength(200)), selectedId: z.optional(z.string()) }),
  // a new run of a cell the panel shows (or a loaded cassette); `select` focuses it
  z.object({ type: z.literal('add-run'), run: InspectorRunSchema, select: z.optional(z.boolean()) }),
  // a problem the panel shows as a banner (unreadable cassette, cell deleted)
  z.object({ type: z.literal('error'), message: z.string().check(z.maxLength(4_000)) }),
]);
export type HostToInspectorMessage = z.infer<typeof HostToInspectorMessageSchema>;

// Inspector panel → extension host.
export const InspectorToHostMessageSchema = z.discriminatedUnion('type', [
  // the page script started; the host answers with `load`
  z.object({ type: z.literal('ready'), restoredRunIds: z.array(z.string()).check(z.maxLength(200)) }),
  z.object({ type: z.literal('rerun'), cellId: z.string().check(z.minLength(1)) }),
  // asks the host to show an open dialog and send the cassette back as `add-run`
  z.object({ type: z.literal('open-cassette') }),
]);
export type InspectorToHostMessage = z.infer<typeof InspectorToHostMessageSchema>;

// Host → inspector messages travel as JSON text in an envelope: VS Code serializes a webview message with
// JSON.stringify and the page receives it by structured clone, both recursive, so a run with a deep value would never
// arrive as an object. Written by the iterative writer, read by JSON.parse (which does not recurse).
export type HostToInspectorEnvelope = { type: 'json'; text: string };

export function encodeHostToInspector(message: HostToInspectorMessage): HostToInspectorEnvelope {
  return { type: 'json', text: jsonText(message) };
}

// Validates one message received by the inspector page from the extension host (an envelope or the message itself).
export function parseHostToInspector(data: unknown): MessageParse<HostToInspectorMessage> {
  if (isEnvelope(data)) {
    try {
      data = JSON.parse(data.text) as unknown;
    } catch {
      return { ok: false, error: 'the message envelope is not JSON' };
    }
  }
  const parsed = HostToInspectorMessageSchema.safeParse(data);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? 'invalid message' };
}

function isEnvelope(data: unknown): data is HostToInspectorEnvelope {
  return data !== null && typeof data === 'object' && (data as { type?: unknown }).type === 'json' && typeof (data as { text?: unknown }).text === 'string';
}

// Validates one message received by the extension host from the inspector page.
export function parseInspectorToHost(data: unknown): MessageParse<InspectorToHostMessage> {
  const parsed = InspectorToHostMessageSchema.safeParse(data);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? 'invalid message' };
}
