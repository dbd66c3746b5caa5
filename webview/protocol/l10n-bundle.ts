import * as z from 'zod/mini';

// Bounds on a translation bundle handed to a webview (ours holds a few hundred short messages).
export const L10N_LIMITS = { entries: 5_000, keyLength: 4_000, valueLength: 8_000 } as const;

// vscode.l10n.bundle as the webviews receive it: English message → translated message, nothing else.
export const L10nBundleSchema = z
  .record(z.string().check(z.maxLength(L10N_LIMITS.keyLength)), z.string().check(z.maxLength(L10N_LIMITS.valueLength)))
  .check(
    z.refine((bundle) => Object.keys(bundle).length <= L10N_LIMITS.entries, `at most ${L10N_LIMITS.entries} messages`),
  );
export type L10nBundle = z.infer<typeof L10nBundleSchema>;

// Validates a bundle received from outside the page; an invalid one is ignored (English stays).
export function parseL10nBundle(data: unknown): L10nBundle | undefined {
  const parsed = L10nBundleSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
