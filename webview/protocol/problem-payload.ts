import * as z from 'zod/mini';
import { formatIssues } from './format-issues.js';

// The renderer's second output type: a cell that could not run (or a task cell's summary), with what fixes it.
// VS Code runs only a handful of built-in commands from a link in a notebook output (its output webview refuses
// every other `command:` link), so the actions are buttons of our renderer that message the extension host.
export const PROBLEM_MIME = 'application/vnd.ptc-playground.problem+json';

// What a problem may offer: a closed set of names the extension host maps to its own commands, so an output (a saved
// notebook is hostile input) can never make the host run anything else.
export const PROBLEM_ACTIONS = [
  'set-notebook-bindings',
  'show-log',
  'pick-model',
  'set-model-key',
  'model-settings',
  'fake-model',
  'review-runtime-paths',
  'manage-trust',
] as const;
export const ProblemActionSchema = z.enum(PROBLEM_ACTIONS);
export type ProblemAction = z.infer<typeof ProblemActionSchema>;

// A file a problem names, opened at its line and column (1-based).
export const FileLocationSchema = z.object({
  path: z.string().check(z.minLength(1), z.maxLength(4_096)),
  line: z.optional(z.int().check(z.positive())),
  column: z.optional(z.int().check(z.positive())),
});
export type FileLocation = z.infer<typeof FileLocationSchema>;

export const MAX_PROBLEM_TEXT = 64_000;

export const ProblemPayloadSchema = z.object({
  message: z.string().check(z.maxLength(MAX_PROBLEM_TEXT)),
  // 'info' for what is not a failure (a task cell's summary, a cancelled loop)
  severity: z.optional(z.enum(['error', 'info'])),
  // the spans of the message [start, end) that name a file which existed when the output was written
  links: z.optional(
    z
      .array(
        z.object({
          start: z.int().check(z.nonnegative()),
          end: z.int().check(z.positive()),
          location: FileLocationSchema,
        }),
      )
      .check(z.maxLength(50)),
  ),
  actions: z.optional(z.array(ProblemActionSchema).check(z.maxLength(PROBLEM_ACTIONS.length))),
  // a paragraph below the actions
  detail: z.optional(z.string().check(z.maxLength(MAX_PROBLEM_TEXT))),
});
export type ProblemPayload = z.infer<typeof ProblemPayloadSchema>;
export type ProblemLink = NonNullable<ProblemPayload['links']>[number];

export type ProblemParse = { ok: true; payload: ProblemPayload } | { ok: false; message: string };

// Validates an output item's JSON; failures name the offending paths.
export function parseProblemPayload(data: unknown): ProblemParse {
  const parsed = ProblemPayloadSchema.safeParse(data);
  if (!parsed.success) return { ok: false, message: formatIssues(parsed.error.issues) };
  return { ok: true, payload: parsed.data };
}

// The message cut into text and file links, in order; links that overlap, run backwards or fall outside the message
// (a hand-edited output) are left as text.
export function problemSegments(
  message: string,
  links: readonly ProblemLink[] = [],
): { text: string; location?: FileLocation }[] {
  const segments: { text: string; location?: FileLocation }[] = [];
  let at = 0;
  for (const link of [...links].sort((a, b) => a.start - b.start)) {
    if (link.start < at || link.end <= link.start || link.end > message.length) continue;
    if (link.start > at) segments.push({ text: message.slice(at, link.start) });
    segments.push({ text: message.slice(link.start, link.end), location: link.location });
    at = link.end;
  }
  if (at < message.length || segments.length === 0) segments.push({ text: message.slice(at) });
  return segments;
}
