import * as z from 'zod/mini';
import { jsonText } from '../../runtime/json/json-text.js';
import { ResultPayloadSchema } from './result-payload.js';
import type { MessageParse } from './renderer-messages.js';
import { INSPECTOR_TABS } from './inspector-tabs.js';

// The WebviewPanel view type (also `onWebviewPanel:<viewType>` and the panel serializer's id).
export const INSPECTOR_VIEW_TYPE = 'ptc-playground.inspector';

// Texts the then-vs-now view shows side by side (each capped by the host).
export const THEN_NOW_TEXT_MAX = 1_000_000;

// Where an imported cell's program came from, on the run that shows what it did in the transcript.
export const TranscriptInfoSchema = z.object({
  format: z.string().check(z.maxLength(40)),
  // how the transcript records output: only a PTC trace ("result") keeps logs and value apart, exactly
  compare: z.enum(['stdout', 'text', 'model-text', 'result']),
  // "claude-run.json line 42"
  origin: z.string().check(z.maxLength(500)),
  // what keeps the program from being reproduced as recorded
  marks: z.array(z.string().check(z.maxLength(2_000))).check(z.maxLength(50)),
});

// A cell run of an imported cell compared with what its transcript recorded ("then" vs "now"), computed by the host.
export const ThenVsNowSchema = z.object({
  agrees: z.boolean(),
  differences: z.array(z.string().check(z.maxLength(2_000))).check(z.maxLength(50)),
  skipped: z.optional(z.string().check(z.maxLength(2_000))),
  // what the texts are: "stdout", "program output", "run_code text"
  label: z.string().check(z.maxLength(100)),
  thenText: z.string().check(z.maxLength(THEN_NOW_TEXT_MAX)),
  nowText: z.string().check(z.maxLength(THEN_NOW_TEXT_MAX)),
});
export type ThenVsNow = z.infer<typeof ThenVsNowSchema>;

// One run the inspector can show: a cell's execution, a cassette loaded from disk, or what an imported cell's
// program did in its transcript.
export const InspectorRunSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  // shown in the run pickers, e.g. "cell 3 · run 4 · live"
  label: z.string().check(z.minLength(1), z.maxLength(500)),
  source: z.enum(['cell', 'cassette', 'transcript']),
  // ISO timestamp of when the run finished (or the cassette was recorded)
  createdAt: z.optional(z.string().check(z.maxLength(64))),
  payload: ResultPayloadSchema,
  transcript: z.optional(TranscriptInfoSchema),
  thenVsNow: z.optional(ThenVsNowSchema),
});
export type InspectorRun = z.infer<typeof InspectorRunSchema>;

// Extension host → inspector panel.
export const HostToInspectorMessageSchema = z.discriminatedUnion('type', [
  // replaces the run list, e.g. when the panel opens for a cell
  // `tab` opens a view, e.g. "then" for an imported cell
  z.object({
    type: z.literal('load'),
    runs: z.array(InspectorRunSchema).check(z.maxLength(200)),
    selectedId: z.optional(z.string()),
    tab: z.optional(z.enum(INSPECTOR_TABS)),
  }),
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
  // Run from here: the cell's run again from call `callId` (1-based) with an edited outcome the host asks for;
  // without `callId` the host asks which call
  z.object({
    type: z.literal('fork'),
    cellId: z.string().check(z.minLength(1)),
    callId: z.optional(z.int().check(z.positive())),
  }),
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
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, error: parsed.error.issues[0]?.message ?? 'invalid message' };
}

function isEnvelope(data: unknown): data is HostToInspectorEnvelope {
  return (
    data !== null &&
    typeof data === 'object' &&
    (data as { type?: unknown }).type === 'json' &&
    typeof (data as { text?: unknown }).text === 'string'
  );
}

// Validates one message received by the extension host from the inspector page.
export function parseInspectorToHost(data: unknown): MessageParse<InspectorToHostMessage> {
  const parsed = InspectorToHostMessageSchema.safeParse(data);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, error: parsed.error.issues[0]?.message ?? 'invalid message' };
}
