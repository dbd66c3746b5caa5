import path from 'node:path';
import type { ErrorClassSpec } from '../api.js';
import { SchemaCompiler } from '../bindings/schema-check.js';
import { identifierProblem } from '../contract/identifiers.js';
import type { CodeCell, MarkdownCell, NotebookCell, NotebookFile } from '../notebook/schema.js';
import { cellCassettePath } from '../session/plan.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { CassetteCall } from '../protocol/binding-call.js';
import { CASSETTE_VERSION, type Cassette } from '../replay/cassette-format.js';
import { formatCassette } from '../replay/cassette-file.js';
import { serializeNotebook } from '../notebook/serialize.js';
import { adaptProgram, type AdapterTool, schemaParameters } from './adapters.js';
import { ImportFailure } from './import-error.js';
import { IMPORT_LIMITS } from './limits.js';
import type { SecretScrubber } from './secrets.js';
import { type StubCall, type StubFunction, type StubNamespace, stubModuleText } from './stub-module.js';
import { type BindingTarget, checkMappingApplies, DEFAULT_GLOBAL, targetOf, type ToolMapping } from './tool-mapping.js';
import {
  FORMAT_TITLES,
  type ExtractedProgram,
  type ExtractedTranscript,
  type RecordedCall,
  type ToolDefinition,
} from './transcript-model.js';
import { errorMessage } from '../output/error-message.js';

// A cell's `metadata.imported`: where the program came from and what it did then (compared with a replay "now").
export interface ImportedCellMeta {
  format: ExtractedProgram['format'];
  file: string;
  line: number;
  programId?: string;
  model?: string;
  timestamps?: Record<string, string>;
  ids?: Record<string, string>;
  language?: string;
  languageGuessed?: true;
  headerLines?: number;
  unreproducible?: string[];
  notes?: string[];
  then?: Record<string, JsonValue>;
}

export interface PlannedFile {
  path: string;
  text: string;
}

export interface PlannedCell {
  id: string;
  kind: 'code' | 'markdown';
  format: ExtractedProgram['format'];
  file: string;
  line: number;
  calls: number;
  unreproducible: string[];
}

// Everything an import writes, held in memory until it is known to be complete; every text is already scrubbed.
export interface ImportPlan {
  notebookPath: string;
  notebookText: string;
  // cassettes and the generated bindings module (when the user named none)
  files: PlannedFile[];
  cells: PlannedCell[];
  warnings: string[];
  redactions: number;
  sources: { file: string; format: ExtractedProgram['format']; shape?: string; programs: number }[];
}

export interface AssembleOptions {
  notebookPath: string;
  mapping: ToolMapping;
  // an existing bindings module (absolute path); without it a stub module is generated next to the notebook
  bindings?: string;
  scrubber: SecretScrubber;
}

const MAX_TASK_CHARS = 8_000;
const SHORT_DEADLINE_MS = 10_000;

export function assemblePlan(transcripts: readonly ExtractedTranscript[], options: AssembleOptions): ImportPlan {
  const warnings: string[] = [];
  const total = transcripts.reduce((n, t) => n + t.programs.length, 0);
  if (total > IMPORT_LIMITS.maxPrograms) {
    throw new ImportFailure({
      file: transcripts[0]?.file ?? '(input)',
      message: `${total} programs; at most ${IMPORT_LIMITS.maxPrograms} are imported into one notebook`,
    });
  }
  for (const t of transcripts) {
    const tools = new Set([...t.tools.map((d) => d.name), ...t.programs.flatMap((p) => p.calls.map((c) => c.tool))]);
    checkMappingApplies(t.format, t.file, tools, options.mapping);
    for (const p of t.programs) {
      if (p.calls.length > IMPORT_LIMITS.maxCallsPerProgram)
        throw new ImportFailure({
          file: t.file,
          line: p.line,
          message: `program ${p.id ?? ''} made ${p.calls.length} tool calls; at most ${IMPORT_LIMITS.maxCallsPerProgram} are imported`,
        });
    }
  }
  const used = new Set(
    transcripts.flatMap((t) => [
      ...t.tools.map((d) => d.name),
      ...t.programs.flatMap((p) => p.calls.map((c) => c.tool)),
    ]),
  );
  for (const tool of options.mapping.keys())
    if (!used.has(tool)) warnings.push(`--map ${tool}: no tool of that name in the transcript(s)`);

  const registry = new Registry(warnings);
  for (const t of transcripts) {
    if (t.format !== 'ptc-trace') registry.namespace(DEFAULT_GLOBAL, t.file);
    if (t.errorClass !== undefined) registry.errorClass(DEFAULT_GLOBAL, t.errorClass);
    for (const ns of t.namespaces ?? []) {
      registry.namespace(ns.global, t.file);
      if (ns.errorClass !== undefined) registry.errorClass(ns.global, ns.errorClass);
    }
    for (const tool of t.tools) registry.declare(toolTarget(t, tool, options.mapping), tool, t.file);
    for (const p of t.programs)
      for (const call of p.calls) registry.record(targetOf(call, t.format, options.mapping), call, t.file);
  }
  const badSchemas = registry.checkSchemas();

  const notebookDir = path.dirname(options.notebookPath);
  const cells: NotebookCell[] = [];
  const planned: PlannedCell[] = [];
  const files: PlannedFile[] = [];
  const ids = new Set<string>();
  let index = 0;
  for (const t of transcripts) {
    if (transcripts.length > 1)
      cells.push(
        markdown(`## ${path.basename(t.file)}\n\n${FORMAT_TITLES[t.format]} · ${t.programs.length} program(s)`),
      );
    const adapterTools = adapterToolsOf(t, options.mapping, registry);
    for (const program of t.programs) {
      index++;
      const id = uniqueId(program, index, ids);
      const unreproducible = [...program.unreproducible];
      const notes = [
        ...program.notes,
        ...program.calls.flatMap((c, i) => c.notes.map((n) => `call ${i + 1} (${c.tool}): ${n}`)),
      ];
      for (const call of program.calls) {
        const target = targetOf(call, t.format, options.mapping);
        const bad = badSchemas.get(key(target));
        if (bad !== undefined && !notes.includes(bad)) notes.push(bad);
      }
      const runnable = program.language !== undefined && program.code !== undefined;
      const meta: ImportedCellMeta = {
        format: program.format,
        file: path.basename(program.file),
        line: program.line,
        ...(program.id === undefined ? {} : { programId: program.id }),
        ...(program.model === undefined ? {} : { model: program.model }),
        ...(program.timestamps === undefined ? {} : { timestamps: program.timestamps }),
        ...(program.ids === undefined ? {} : { ids: program.ids }),
        language: program.languageLabel,
        ...(program.languageGuessed === true ? { languageGuessed: true as const } : {}),
      };
      if (program.languageGuessed === true)
        notes.push(
          `the log does not say which language ran this program; it looks like ${program.languageLabel} (use --language to say otherwise)`,
        );
      if (program.outcome === undefined)
        unreproducible.push(
          'the transcript has no result for this program, so there is nothing to compare a replay with',
        );
      else if (program.outcome.skipped !== undefined) notes.push(`compared partly: ${program.outcome.skipped}`);
      let source: string | undefined;
      if (runnable) {
        const adapted = adaptProgram(
          program,
          program.code as string,
          adapterTools,
          `${path.basename(program.file)} line ${program.line}`,
        );
        source = adapted.source;
        notes.push(...adapted.notes);
        if (adapted.headerLines > 0) meta.headerLines = adapted.headerLines;
      }
      // a replay of a program that never finished would wait out the default two-minute deadline
      const hasUnanswered = program.calls.some((c) => c.outcome.kind === 'unanswered');
      const timedOut = program.outcome?.error?.kind === 'timeout';
      if (runnable && timedOut)
        notes.push(
          `it timed out in the transcript; the cell's deadline is ${SHORT_DEADLINE_MS / 1000} s so a replay does not wait longer than needed`,
        );
      if (unreproducible.length > 0) meta.unreproducible = unreproducible;
      if (notes.length > 0) meta.notes = notes;
      const heading = markdown(describeProgram(program, index, total, unreproducible, notes, runnable));
      cells.push(heading);
      if (!runnable) {
        heading.metadata = { id, imported: meta as unknown as JsonValue };
        planned.push({
          id,
          kind: 'markdown',
          format: program.format,
          file: program.file,
          line: program.line,
          calls: program.calls.length,
          unreproducible,
        });
        continue;
      }
      if (program.outcome !== undefined) meta.then = thenOf(program, t, options.mapping);

      const cell: CodeCell = {
        kind: 'code',
        language: program.language as NonNullable<ExtractedProgram['language']>,
        source: source as string,
        metadata: {
          id,
          mode: 'replay',
          ...(hasUnanswered || timedOut ? { limits: { timeoutMs: SHORT_DEADLINE_MS } } : {}),
          imported: meta as unknown as JsonValue,
        },
      };
      cells.push(cell);
      const cassette: Cassette = {
        version: CASSETTE_VERSION,
        calls: program.calls.map((c) => cassetteCall(c, targetOf(c, t.format, options.mapping))),
      };
      const scrubbed = options.scrubber.scrubValue(cassette as unknown as JsonValue) as unknown as Cassette;
      const cassettePath = cellCassettePath({
        cell: { id },
        cellIndex: cells.length - 1,
        notebookDir,
        notebookFile: options.notebookPath,
      });
      files.push({ path: cassettePath, text: formatCassette(scrubbed) });
      planned.push({
        id,
        kind: 'code',
        format: program.format,
        file: program.file,
        line: program.line,
        calls: program.calls.length,
        unreproducible,
      });
    }
  }

  const stubName = `${path.basename(options.notebookPath).replace(/\.ptcnb$/i, '')}.bindings.mjs`;
  const bindingsRef =
    options.bindings === undefined ? stubName : path.relative(notebookDir, options.bindings).split(path.sep).join('/');
  const notebook: NotebookFile = {
    version: 1,
    metadata: {
      bindings: bindingsRef,
      mode: 'mock',
      imported: {
        sources: transcripts.map((t) => ({
          file: path.basename(t.file),
          format: t.format,
          programs: t.programs.length,
        })),
      },
    },
    cells,
  };
  if (options.bindings === undefined) {
    const stub = options.scrubber.scrubValue(registry.stub() as unknown as JsonValue) as unknown as {
      namespaces: StubNamespace[];
    };
    files.push({
      path: path.join(notebookDir, stubName),
      text: stubModuleText({ namespaces: stub.namespaces, sources: transcripts.map((t) => path.basename(t.file)) }),
    });
  }
  const notebookText = serializeNotebook(
    options.scrubber.scrubValue(notebook as unknown as JsonValue) as unknown as NotebookFile,
  );
  return {
    notebookPath: options.notebookPath,
    notebookText,
    files,
    cells: planned,
    warnings,
    redactions: options.scrubber.redactions,
    sources: transcripts.map((t) => ({
      file: t.file,
      format: t.format,
      ...(t.shape === undefined ? {} : { shape: t.shape }),
      programs: t.programs.length,
    })),
  };
}

// The recorded answer in the form a cassette holds it.
function cassetteCall(call: RecordedCall, target: BindingTarget): CassetteCall {
  const base = { global: target.global, name: target.name, args: call.args };
  const durationMs = call.durationMs ?? 0;
  if (call.outcome.kind === 'ok') return { ...base, ok: true, value: call.outcome.value, durationMs };
  if (call.outcome.kind === 'error') return { ...base, ok: false, message: call.outcome.message, durationMs };
  return { ...base, ok: false, pending: true, durationMs };
}

function thenOf(program: ExtractedProgram, t: ExtractedTranscript, mapping: ToolMapping): Record<string, JsonValue> {
  const outcome = program.outcome as NonNullable<ExtractedProgram['outcome']>;
  const then: Record<string, JsonValue> = { compare: outcome.compare, logs: outcome.logs };
  if (outcome.stderrLogs !== undefined) then.stderrLogs = outcome.stderrLogs;
  if (outcome.value !== undefined) then.value = outcome.value;
  if (outcome.error !== undefined) then.error = { kind: outcome.error.kind, message: outcome.error.message };
  if (outcome.modelText !== undefined) then.modelText = outcome.modelText;
  if (outcome.skipped !== undefined) then.skipped = outcome.skipped;
  then.calls = program.calls.map((c) => {
    const call = cassetteCall(c, targetOf(c, t.format, mapping));
    const { durationMs: _d, ...rest } = call;
    return rest as unknown as JsonValue;
  });
  return then;
}

function toolTarget(t: ExtractedTranscript, tool: ToolDefinition, mapping: ToolMapping): BindingTarget {
  return targetOf(
    { tool: tool.name, ...(tool.global === undefined ? {} : { global: tool.global }) },
    t.format,
    mapping,
  );
}

function adapterToolsOf(t: ExtractedTranscript, mapping: ToolMapping, registry: Registry): AdapterTool[] {
  const names = new Set([...t.tools.map((d) => d.name), ...t.programs.flatMap((p) => p.calls.map((c) => c.tool))]);
  return [...names].map((tool) => {
    const target = targetOf({ tool }, t.format, mapping);
    return { tool, target, parameters: schemaParameters(registry.input(target)) };
  });
}

const key = (target: BindingTarget): string => `${target.global}\u0000${target.name}`;

function markdown(source: string): MarkdownCell {
  return { kind: 'markdown', source };
}

function uniqueId(program: ExtractedProgram, index: number, ids: Set<string>): string {
  const base =
    (program.id ?? '')
      .replace(/[^A-Za-z0-9_-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 56) || `program-${index}`;
  let id = base;
  for (let n = 2; ids.has(id.toLowerCase()); n++) id = `${base}-${n}`;
  ids.add(id.toLowerCase());
  return id;
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

function describeProgram(
  program: ExtractedProgram,
  index: number,
  total: number,
  unreproducible: string[],
  notes: string[],
  runnable: boolean,
): string {
  const parts: string[] = [];
  parts.push(`### Program ${index} of ${total}${program.id === undefined ? '' : ` · ${code(program.id)}`}`);
  if (program.task !== undefined && program.task.trim() !== '') {
    const task = program.task.length > MAX_TASK_CHARS ? `${program.task.slice(0, MAX_TASK_CHARS)}…` : program.task;
    parts.push(
      task
        .trimEnd()
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n'),
    );
  } else parts.push('_No user message precedes this program in the transcript._');
  const facts = [`${FORMAT_TITLES[program.format]}`, `${code(path.basename(program.file))} line ${program.line}`];
  if (program.model !== undefined) facts.push(`model ${code(program.model)}`);
  for (const [name, value] of Object.entries(program.ids ?? {}))
    if (value !== program.id) facts.push(`${name} ${code(value)}`);
  for (const [name, value] of Object.entries(program.timestamps ?? {})) facts.push(`${name} ${value}`);
  facts.push(`${program.calls.length} recorded tool call(s)`);
  parts.push(`_${facts.join(' · ')}_`);
  if (unreproducible.length > 0)
    parts.push(`⚠️ **Cannot be reproduced as recorded:**\n${unreproducible.map((u) => `- ${u}`).join('\n')}`);
  if (notes.length > 0) parts.push(`**Notes:**\n${notes.map((n) => `- ${n}`).join('\n')}`);
  if (!runnable && program.code !== undefined) {
    const fence = program.code.includes('```') ? '~~~~' : '```';
    parts.push(
      `The program (${program.languageLabel}), kept as text:\n\n${fence}${program.languageLabel}\n${program.code}\n${fence}`,
    );
  }
  return parts.join('\n\n');
}

// Every namespace and function the notebook's bindings declare, with the transcript's schemas and recorded answers.
class Registry {
  readonly #namespaces = new Map<string, { errorClass?: ErrorClassSpec; functions: Map<string, StubFunction> }>();
  readonly #warnings: string[];

  constructor(warnings: string[]) {
    this.#warnings = warnings;
  }

  namespace(global: string, file: string): { errorClass?: ErrorClassSpec; functions: Map<string, StubFunction> } {
    let ns = this.#namespaces.get(global);
    if (ns === undefined) {
      const problem = identifierProblem(global);
      if (problem !== undefined)
        throw new ImportFailure({
          file,
          message: `namespace ${JSON.stringify(global)} cannot be a program global: ${problem}`,
        });
      ns = { functions: new Map() };
      this.#namespaces.set(global, ns);
    }
    return ns;
  }

  errorClass(global: string, spec: ErrorClassSpec): void {
    const ns = this.#namespaces.get(global);
    if (ns === undefined || ns.errorClass !== undefined) return;
    const clash =
      this.#namespaces.has(spec.name) ||
      [...this.#namespaces.values()].some((other) => other.errorClass?.name === spec.name);
    if (clash)
      this.#warnings.push(
        `error class ${spec.name} of ${global} clashes with another global; ${global} failures reject with a plain Error`,
      );
    else ns.errorClass = { name: spec.name, memberNameProperty: spec.memberNameProperty };
  }

  declare(target: BindingTarget, tool: ToolDefinition, file: string): void {
    const fn = this.#fn(target, file);
    if (fn.description === undefined && tool.description !== undefined) fn.description = tool.description;
    if (fn.input === undefined && tool.inputSchema !== undefined) fn.input = tool.inputSchema;
    if (fn.output === undefined && tool.outputSchema !== undefined) fn.output = tool.outputSchema;
  }

  record(target: BindingTarget, call: RecordedCall, file: string): void {
    const fn = this.#fn(target, file);
    const answer: StubCall =
      call.outcome.kind === 'ok'
        ? { args: call.args, ok: true, value: call.outcome.value }
        : call.outcome.kind === 'error'
          ? { args: call.args, ok: false, message: call.outcome.message }
          : { args: call.args, ok: false, pending: true };
    fn.recorded.push(answer);
  }

  input(target: BindingTarget): Record<string, JsonValue> | undefined {
    return this.#namespaces.get(target.global)?.functions.get(target.name)?.input;
  }

  // Schemas the runtime would refuse to compile are dropped (the module would not load); the cells that use them say
  // so.
  checkSchemas(): Map<string, string> {
    const compiler = new SchemaCompiler();
    const bad = new Map<string, string>();
    for (const [global, ns] of this.#namespaces) {
      for (const fn of ns.functions.values()) {
        for (const which of ['input', 'output'] as const) {
          const schema = fn[which];
          if (schema === undefined) continue;
          try {
            compiler.compile(schema);
          } catch (error) {
            delete fn[which];
            const message = `the transcript's ${which} schema for ${global}.${fn.name} is not usable JSON Schema (${errorMessage(error).split('\n')[0]}); the stub declares none`;
            bad.set(key({ global, name: fn.name }), message);
            this.#warnings.push(message);
          }
        }
      }
    }
    return bad;
  }

  stub(): { namespaces: StubNamespace[] } {
    return {
      namespaces: [...this.#namespaces].map(([global, ns]) => ({
        global,
        ...(ns.errorClass === undefined ? {} : { errorClass: ns.errorClass }),
        functions: [...ns.functions.values()],
      })),
    };
  }

  #fn(target: BindingTarget, file: string): StubFunction {
    const ns = this.namespace(target.global, file);
    let fn = ns.functions.get(target.name);
    if (fn === undefined) {
      fn = { name: target.name, recorded: [] };
      ns.functions.set(target.name, fn);
    }
    return fn;
  }
}
