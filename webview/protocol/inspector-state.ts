import * as z from 'zod/mini';
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

// Restores persisted state; anything unreadable (older version, corrupt) starts empty instead of failing the page.
export function parseInspectorState(data: unknown): InspectorState {
  const parsed = InspectorStateSchema.safeParse(data);
  return parsed.success ? parsed.data : EMPTY_INSPECTOR_STATE;
}
