import type { DeterministicSettings } from '../protocol/binding-call.js';

// Defaults of `--deterministic`: the clock reads 2025-01-01T00:00:00.000Z and random values come from seed 1.
export const DEFAULT_DETERMINISTIC: DeterministicSettings = { epochMs: Date.UTC(2025, 0, 1), seed: 1 };
