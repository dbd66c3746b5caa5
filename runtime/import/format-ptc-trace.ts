// The PTC Playground JSONL trace (runtime/import/trace-format.ts, docs/import.md): programs, their calls and results
// exactly as the runtime reported them, so the comparison is exact.
import type { z } from 'zod';
import type { ApiDocument } from './api-document.js';
import { fieldFailure, locate } from './json-records.js';
import { collectTool, isoTime, newProgram, noteUnanswered } from './program-builder.js';
import { TRACE_VERSION, type TraceRecord, TraceRecordSchema } from './trace-format.js';
import type {
  DeclaredNamespaceInfo,
  ExtractedProgram,
  ExtractedTranscript,
  ToolDefinition,
} from './transcript-model.js';
import type { JsonNode } from './json-node.js';

export function readPtcTrace(documents: readonly ApiDocument[], file: string): ExtractedTranscript {
  const programs = new Map<string, ExtractedProgram>();
  const tools = new Map<string, ToolDefinition>();
  const namespaces: DeclaredNamespaceInfo[] = [];
  let task: string | undefined;
  let header = false;
  // calls and results belong to a program an earlier record declared
  const declared = (at: JsonNode, what: string, id: string | number): ExtractedProgram => {
    const program = programs.get(String(id));
    if (program === undefined)
      throw at.fail(`${what} for program ${JSON.stringify(id)}, which no earlier "program" record declares`);
    return program;
  };
  for (const [index, document] of documents.entries()) {
    const record = parseRecord(document.node);
    if (index === 0 && record.type !== 'ptc-trace')
      throw document.node.fail(
        `the first record of a trace is the header {"type":"ptc-trace","version":${TRACE_VERSION}}`,
      );
    switch (record.type) {
      case 'ptc-trace':
        if (header) throw document.node.fail('a second trace header');
        header = true;
        break;
      case 'bindings':
        record.namespaces.forEach((ns, i) => {
          namespaces.push({ global: ns.global, ...(ns.errorClass === undefined ? {} : { errorClass: ns.errorClass }) });
          const at = document.node.get('namespaces')?.get(i)?.get('functions');
          ns.functions.forEach((fn, j) => {
            const node = at?.get(j);
            collectTool(tools, {
              name: fn.name,
              global: ns.global,
              description: fn.description,
              input: node?.get('input'),
              output: node?.get('output'),
            });
          });
        });
        break;
      case 'message':
        if (record.role === 'user') task = record.text;
        break;
      case 'program': {
        const id = String(record.id);
        if (programs.has(id)) throw document.node.fail(`a second program with id ${JSON.stringify(id)}`);
        const program = newProgram({
          format: 'ptc-trace',
          file,
          line: locate(document.node.record, []).line,
          id,
          language: record.language,
          languageLabel: record.language,
          code: record.source,
        });
        if (task !== undefined) program.task = task;
        if (record.model !== undefined) program.model = record.model;
        if (record.startedAt !== undefined) program.timestamps = { started: isoTime(record.startedAt) };
        if (record.description !== undefined) program.notes.push(`described as: ${record.description}`);
        programs.set(id, program);
        break;
      }
      case 'call': {
        const program = declared(document.node, 'a call', record.program);
        program.calls.push({
          tool: record.name,
          global: record.global,
          args: record.args,
          outcome:
            record.pending === true
              ? { kind: 'unanswered' }
              : record.ok
                ? { kind: 'ok', value: record.value ?? null }
                : { kind: 'error', message: record.message ?? '' },
          id: String(record.id),
          ...(record.durationMs === undefined ? {} : { durationMs: record.durationMs }),
          notes: [],
        });
        break;
      }
      case 'result': {
        const program = declared(document.node, 'a result', record.program);
        if (record.callsOmitted !== undefined) {
          program.unreproducible.push(
            `the trace lists ${program.calls.length} of the program's ${program.calls.length + record.callsOmitted} calls (the rest were only counted); a replay cannot answer the missing ones`,
          );
        }
        program.outcome = {
          compare: 'result',
          logs: record.logs,
          ...(record.stderrLogs === undefined ? {} : { stderrLogs: record.stderrLogs }),
          ...(record.value === undefined ? {} : { value: record.value }),
          ...(record.error === undefined ? {} : { error: record.error }),
        };
        break;
      }
    }
  }
  const list = [...programs.values()];
  for (const program of list) {
    program.calls.sort((a, b) => Number(a.id) - Number(b.id));
    noteUnanswered(program);
  }
  return { format: 'ptc-trace', file, programs: list, tools: [...tools.values()], namespaces };
}

// Validates one record; the first problem is reported at its own field.
function parseRecord(node: JsonNode): TraceRecord {
  if (!node.isObject()) throw node.fail('expected a trace record object');
  const parsed = TraceRecordSchema.safeParse(node.value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const path = [...node.path, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
  return failAt(node, path, issue.message);
}

function failAt(node: JsonNode, path: (string | number)[], message: string): never {
  throw fieldFailure(node.record, path, message);
}
