import * as z from 'zod/mini';
import { jsonText } from '../../runtime/json/json-text.js';
import { InspectorRunSchema } from './inspector-messages.js';
import { INSPECTOR_TABS } from './inspector-tabs.js';

export { INSPECTOR_TABS, type InspectorTab } from './inspector-tabs.js';

// How many runs the page keeps in its persisted state (getState/setState and the panel serializer).
export const MAX_KEPT_RUNS = 20;

// What the panel persists across reloads; the panel serializer hands the same object back on restore.
export const InspectorStateSchema = z.object({
  version: z.literal(1),
  runs: z.array(InspectorRunSchema).check(z.maxLength(MAX_KEPT_RUNS)),
  selectedId: z.optional(z.string()),
  tab: z.enum(INSPECTOR_TABS),
  diffLeftId: z.optional(z.string()),
  diffRightId: z.optional(z.string()),
});
export type InspectorState = z.infer<typeof InspectorStateSchema>;

export const EMPTY_INSPECTOR_STATE: InspectorState = { version: 1, runs: [], tab: 'run' };

// What setState is given: the state as JSON text (the webview host serializes state recursively, and a kept run may
// hold a value nested thousands deep).
export function persistedInspectorState(state: InspectorState): { version: 1; json: string } {
  return { version: 1, json: jsonText(state) };
}

// Restores persisted state; anything unreadable (older version, corrupt) starts empty instead of failing the page.
export function parseInspectorState(data: unknown): InspectorState {
  if (data !== null && typeof data === 'object' && typeof (data as { json?: unknown }).json === 'string') {
    try {
      data = JSON.parse((data as { json: string }).json) as unknown;
    } catch {
      return EMPTY_INSPECTOR_STATE;
    }
  }
  const parsed = InspectorStateSchema.safeParse(data);
  return parsed.success ? parsed.data : EMPTY_INSPECTOR_STATE;
}
