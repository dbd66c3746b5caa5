import { identifierProblem } from '../contract/identifiers.js';
import { ImportFailure } from './import-error.js';
import { JsonNode } from './json-node.js';
import { parseRecords } from './json-records.js';
import type { SourceText } from './source-text.js';
import type { RecordedCall, TranscriptFormat } from './transcript-model.js';
import { errorMessage } from '../output/error-message.js';

// Where a transcript's tool lands in the notebook's bindings: `<global>.<name>`.
export interface BindingTarget {
  global: string;
  name: string;
}

// Transcript tool name → binding target; tools not listed go to `tools.<tool name>`.
export type ToolMapping = ReadonlyMap<string, BindingTarget>;

export const DEFAULT_GLOBAL = 'tools';

// `get_weather=weather.current`: the namespace must be a portable identifier, the function name is the rest.
export function parseMapEntry(spec: string): [string, BindingTarget] {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new Error(`--map expects tool=namespace.function, got ${JSON.stringify(spec)}`);
  return [spec.slice(0, eq), parseTarget(spec.slice(eq + 1), `--map ${spec.slice(0, eq)}`)];
}

function parseTarget(text: string, what: string): BindingTarget {
  const dot = text.indexOf('.');
  if (dot <= 0 || dot === text.length - 1)
    throw new Error(`${what}: expected namespace.function, got ${JSON.stringify(text)}`);
  const global = text.slice(0, dot);
  const problem = identifierProblem(global);
  if (problem !== undefined) throw new Error(`${what}: the namespace ${problem}`);
  return { global, name: text.slice(dot + 1) };
}

// A mapping file: `{ "get_weather": "weather.current", ... }`; problems name the file, line and key.
export function parseMappingFile(source: SourceText): Map<string, BindingTarget> {
  const [record] = parseRecords(source, { jsonl: false });
  const root = JsonNode.of(record as NonNullable<typeof record>);
  if (!root.isObject()) throw root.fail('expected an object of "tool name": "namespace.function" entries');
  const out = new Map<string, BindingTarget>();
  for (const key of Object.keys(root.value as object)) {
    const node = root.get(key) as JsonNode;
    if (typeof node.value !== 'string') throw node.fail('expected "namespace.function"');
    try {
      out.set(key, parseTarget(node.value, 'mapping'));
    } catch (error) {
      throw node.fail(errorMessage(error).replace(/^mapping: /, ''));
    }
  }
  return out;
}

// The binding a recorded call is replayed through.
export function targetOf(
  call: Pick<RecordedCall, 'tool' | 'global'>,
  format: TranscriptFormat,
  mapping: ToolMapping,
): BindingTarget {
  if (format === 'ptc-trace' && call.global !== undefined) return { global: call.global, name: call.tool };
  if (format === 'deepseek' || format === 'ptc-trace') return { global: DEFAULT_GLOBAL, name: call.tool };
  return mapping.get(call.tool) ?? { global: DEFAULT_GLOBAL, name: call.tool };
}

// Programs of these formats name `tools.<name>` themselves, so their calls cannot be moved elsewhere.
export function checkMappingApplies(
  format: TranscriptFormat,
  file: string,
  tools: Iterable<string>,
  mapping: ToolMapping,
): void {
  if (format !== 'deepseek' && format !== 'ptc-trace') return;
  for (const tool of tools) {
    if (mapping.has(tool)) {
      throw new ImportFailure({
        file,
        message: `--map ${tool}: ${format} programs call their namespaces by name (tools.${tool}), so their tools keep the names the transcript gives them`,
      });
    }
  }
}
