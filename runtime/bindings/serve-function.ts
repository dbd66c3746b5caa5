import type { BindingFunction, CallContext } from '../api.js';
import { snapshotLossless } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';
import { CallFailure } from './call-failure.js';
import { renderThrown } from './dispatcher.js';
import { abortableDelay } from './faults.js';
import type { FunctionDeclaration, HandlerContext, Mode, WarningSink } from './module-format.js';
import type { SchemaCheck } from './schema-check.js';

export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
// how long a call that keeps reporting progress may run in all, unless its declaration says otherwise
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 300_000;

export interface ServeOptions {
  global: string;
  name: string;
  declaration: FunctionDeclaration;
  mode: Mode;
  input: SchemaCheck | undefined;
  output: SchemaCheck | undefined;
  // true when an omitted argument (null) should reach validation and the handler as `{}`
  omittedIsEmptyObject: boolean;
  random: () => number;
  defaultTimeoutMs: number;
  onWarning: WarningSink;
}

// Why a call was refused before any handler ran; the program sees it as the namespace's error class.
export class CallRefused extends Error {}

// Wraps one handler: argument schema, mock faults, per-call deadline, lossless result, output schema.
export function serveFunction(options: ServeOptions): BindingFunction {
  const { global, name, declaration, mode } = options;
  const label = `${global}.${name}`;
  const handler = (
    mode === 'live' ? (declaration.live ?? declaration.mock) : (declaration.mock ?? declaration.live)
  ) as ((args: JsonValue, context: HandlerContext) => unknown) | undefined;
  const timeoutMs = declaration.timeoutMs ?? options.defaultTimeoutMs;
  const maxTotalMs = Math.max(timeoutMs, declaration.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS);
  // only declared faults cost anything per call (a failRate draws from the seeded stream either way)
  const faulty =
    mode === 'mock' &&
    declaration.mock !== undefined &&
    ((declaration.latencyMs ?? 0) > 0 || declaration.failRate !== undefined || declaration.failWith !== undefined);

  return async (rawArgs: JsonValue, context?: CallContext): Promise<JsonValue> => {
    const args = rawArgs === null && options.omittedIsEmptyObject ? {} : rawArgs;
    const issues = options.input?.(args) ?? [];
    if (issues.length > 0)
      throw new CallRefused(issues.map((issue) => `invalid arguments for ${label}: ${issue}`).join('\n'));
    if (handler === undefined) throw new CallRefused(`${label} has no ${mode} handler`);

    // the handler's own signal (its deadline, the run's end, an interrupt), made only if something reads it: an
    // AbortController per call costs more than many a mock handler
    let controller: AbortController | undefined;
    const outer = context?.signal;
    const forward = (): void => controller?.abort(outer?.reason);
    const signal = (): AbortSignal => {
      if (controller === undefined) {
        controller = new AbortController();
        if (outer?.aborted) forward();
        else outer?.addEventListener('abort', forward, { once: true });
      }
      return controller.signal;
    };
    let timer: NodeJS.Timeout | undefined;
    let unregister: (() => void) | undefined;
    try {
      const value = await new Promise<unknown>((resolve, reject) => {
        // set once the call is answered or stopped: a late progress report must not start a new deadline
        let settled = false;
        const stop = (error: Error): void => {
          settled = true;
          controller?.abort(error);
          reject(error);
        };
        const began = performance.now();
        let progressed = false;
        // the deadline starts again with each progress report, as the MCP spec suggests, up to maxTotalMs in all
        const arm = (ms: number): void => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            const total = performance.now() - began >= maxTotalMs - 1;
            stop(
              new Error(
                total && progressed
                  ? `${label} timed out after ${maxTotalMs} ms in all (its maxTotalTimeoutMs), though it reported progress`
                  : `${label} timed out after ${timeoutMs} ms${progressed ? ' without progress' : ''}`,
              ),
            );
          }, ms);
        };
        arm(timeoutMs);
        unregister = context?.interruptible?.(stop);
        const handlerContext: HandlerContext = {
          id: context?.id ?? 0,
          global,
          name,
          get signal() {
            return signal();
          },
          progress: (note) => {
            if (settled) return;
            context?.annotate({ progress: note });
            progressed = true;
            arm(Math.max(0, Math.min(timeoutMs, maxTotalMs - (performance.now() - began))));
          },
        };
        const finish = (): void => {
          settled = true;
        };
        const served = faulty
          ? injectFaults(declaration, options.random, signal, label).then(() => handler(args, handlerContext))
          : new Promise<unknown>((started) => started(handler(args, handlerContext)));
        // a late answer after the deadline is dropped (and a late rejection never surfaces as unhandled)
        served.then(resolve, reject).finally(finish);
      });
      return checkResult(value, label, options, context);
    } catch (thrown) {
      if (thrown instanceof CallRefused || thrown instanceof CallFailure) throw thrown;
      throw new Error(renderThrown(thrown), { cause: thrown });
    } finally {
      clearTimeout(timer);
      unregister?.();
      if (controller !== undefined) outer?.removeEventListener('abort', forward);
    }
  };
}

async function injectFaults(
  declaration: FunctionDeclaration,
  random: () => number,
  signal: () => AbortSignal,
  label: string,
): Promise<void> {
  if (declaration.latencyMs !== undefined && declaration.latencyMs > 0)
    await abortableDelay(declaration.latencyMs, signal());
  const rate = declaration.failRate ?? (declaration.failWith !== undefined ? 1 : 0);
  if (rate > 0 && random() < rate)
    throw new CallRefused(declaration.failWith ?? `${label} failed (injected fault, failRate ${rate})`);
}

function checkResult(
  value: unknown,
  label: string,
  options: ServeOptions,
  context: CallContext | undefined,
): JsonValue {
  // a handler that returns nothing answers null, like Python's None
  const result = value === undefined ? null : value;
  // read once: the schema sees, and the program receives, the same snapshot (getters do not run again)
  const snapshot = snapshotLossless(result);
  if (!snapshot.ok) throw new CallRefused(`${label} returned a value that is not lossless JSON: ${snapshot.reason}`);
  const issues = options.output?.(snapshot.value) ?? [];
  if (issues.length > 0) {
    const violation = issues.join('; ');
    context?.annotate({ schemaViolation: violation });
    options.onWarning(`${label} returned a value that violates its output schema: ${violation}`);
  }
  return snapshot.value;
}
