import { z } from 'zod';
import { checkLossless } from '../json/lossless.js';

// Lossless JSON: what crosses every boundary of a model program (arguments, replies, return values).
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

// Checked iteratively (a recursive schema would overflow the stack on 10 000-deep values).
export const JsonValueSchema = z.custom<JsonValue>((value) => checkLossless(value).ok, { message: 'expected lossless JSON' });
