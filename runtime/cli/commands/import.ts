import path from 'node:path';
import {
  errorMessage,
  type BindingTarget,
  describeImportProblem,
  FORMAT_TITLES,
  parseMapEntry,
  parseMappingFile,
  planImport,
  readSourceText,
  TRANSCRIPT_FORMATS,
  verifyImportedNotebook,
  writeImportPlan,
  type CellVerdict,
  type ImportPlan,
  ImportFailure,
} from '../../index.js';
import { oneOf } from '../run-options.js';
import { visibleJson, visibleText } from '../terminal-text.js';
import { UsageError, parseCommandLine, type CliCommand, type CliIo, type FlagSpecs } from '../usage-error.js';

const USAGE = `ptc import <transcript…> [-o, --output <notebook.ptcnb>] [--format ${TRANSCRIPT_FORMATS.join('|')}] [--language typescript|python]
        [--map <tool>=<namespace>.<function>]… [--mapping <map.json>] [--bindings <module>] [--force] [--verify] [--json]`;

const FLAGS = {
  output: {
    type: 'string',
    short: 'o',
    value: '<notebook.ptcnb>',
    byDefault: 'beside the first transcript',
    help: 'the notebook to write',
  },
  out: { type: 'string', aliasOf: 'output', help: 'old spelling of --output' },
  format: { type: 'string', choices: TRANSCRIPT_FORMATS, byDefault: 'detected', help: "the transcripts' format" },
  language: { type: 'string', choices: ['typescript', 'python'], help: 'only programs in this language' },
  map: {
    type: 'string',
    multiple: true,
    value: '<tool>=<namespace>.<function>',
    help: 'call a transcript tool by another name (repeatable)',
  },
  mapping: { type: 'string', value: '<map.json>', help: 'a file of such mappings' },
  bindings: { type: 'string', value: '<module>', help: 'use this bindings module instead of generating one' },
  force: { type: 'boolean', help: 'replace files that exist' },
  verify: { type: 'boolean', help: 'replay the notebook and compare each cell with the transcript' },
  json: { type: 'boolean', help: 'print what was imported as JSON' },
} as const satisfies FlagSpecs;

interface ImportFlags {
  files: string[];
  out: string;
  format: (typeof TRANSCRIPT_FORMATS)[number] | undefined;
  language: 'typescript' | 'python' | undefined;
  map: string[];
  mapping: string | undefined;
  bindings: string | undefined;
  force: boolean;
  verify: boolean;
  json: boolean;
}

function parseFlags(argv: string[]): ImportFlags {
  const { values, positionals } = parseCommandLine(argv, FLAGS, 'import');
  if (positionals.length === 0) throw new UsageError('missing transcript file');
  const first = positionals[0] as string;
  const out =
    values.output ??
    path.join(path.dirname(first), `${path.basename(first).replace(/\.(jsonl|ndjson|json|har)$/i, '')}.ptcnb`);
  if (!out.endsWith('.ptcnb')) throw new UsageError(`--output must name a .ptcnb notebook, got "${out}"`);
  return {
    files: positionals,
    out,
    format: oneOf('format', values.format, TRANSCRIPT_FORMATS),
    language: oneOf('language', values.language, ['typescript', 'python'] as const),
    map: values.map ?? [],
    mapping: values.mapping,
    bindings: values.bindings,
    force: values.force === true,
    verify: values.verify === true,
    json: values.json === true,
  };
}

async function mappingOf(flags: ImportFlags): Promise<Map<string, BindingTarget>> {
  const mapping = new Map<string, BindingTarget>();
  if (flags.mapping !== undefined) {
    try {
      for (const [tool, target] of parseMappingFile(await readSourceText(flags.mapping))) mapping.set(tool, target);
    } catch (error) {
      if (error instanceof ImportFailure) throw new UsageError(describeImportProblem(error.problem));
      throw error;
    }
  }
  for (const spec of flags.map) {
    try {
      const [tool, target] = parseMapEntry(spec);
      mapping.set(tool, target);
    } catch (error) {
      throw new UsageError(errorMessage(error));
    }
  }
  return mapping;
}

// `ptc import`: agent transcripts → a .ptcnb notebook, one replayable cell (and cassette) per program.
export const importCommand: CliCommand = {
  name: 'import',
  summary: 'turn agent transcripts into a notebook that replays each program offline',
  usage: USAGE,
  flags: FLAGS,
  exitCodes: ['1  --verify: a cell without marks does not reproduce the transcript'],
  examples: [
    '# a transcript of the Anthropic API into a notebook, checked by replaying it\nptc import examples/transcripts/anthropic-sales.json --output /tmp/sales.ptcnb --verify',
    '# a tool renamed on the way in\nptc import run.jsonl --output run.ptcnb --map search=web.search',
  ],
  async run(argv, io) {
    const flags = parseFlags(argv);
    const outcome = await planImport({
      files: flags.files,
      out: flags.out,
      mapping: await mappingOf(flags),
      ...(flags.format === undefined ? {} : { format: flags.format }),
      ...(flags.language === undefined ? {} : { language: flags.language }),
      ...(flags.bindings === undefined ? {} : { bindings: flags.bindings }),
    });
    if (!outcome.ok) throw new UsageError(`${outcome.message}\nnothing was written`);
    const plan = outcome.plan;
    const written = await writeImportPlan(plan, { force: flags.force });
    if (!written.ok) throw new UsageError(written.message);
    let verdicts: CellVerdict[] | undefined;
    if (flags.verify) {
      const verified = await verifyImportedNotebook(plan.notebookPath);
      if (!verified.ok) throw new UsageError(`the imported notebook did not run: ${verified.message}`);
      verdicts = verified.cells;
    }
    if (flags.json) io.stdout(`${visibleJson(JSON.stringify(jsonReport(plan, written.written, verdicts)))}\n`);
    else report(io, plan, written.written, verdicts);
    return verdicts === undefined || verdicts.every((v) => agreesOrExcused(v)) ? 0 : 1;
  },
};

// a cell marked "cannot be reproduced" may differ; a cell without marks must agree
function agreesOrExcused(v: CellVerdict): boolean {
  if (v.setupError !== undefined) return false;
  return v.comparison === undefined || v.comparison.agrees || v.marked;
}

// Transcripts are the model's (and its tools') text: every line is made visible before it reaches the terminal.
function report(raw: CliIo, plan: ImportPlan, written: string[], verdicts: CellVerdict[] | undefined): void {
  const io: CliIo = { stdout: (t) => raw.stdout(visibleText(t)), stderr: (t) => raw.stderr(visibleText(t)) };
  const rel = (file: string): string => path.relative(process.cwd(), file) || file;
  for (const source of plan.sources)
    io.stdout(
      `read ${source.file} as ${FORMAT_TITLES[source.format]}${source.shape === undefined ? '' : ` (${source.shape})`}: ${source.programs} program(s)\n`,
    );
  for (const cell of plan.cells) {
    const marks = cell.unreproducible.length === 0 ? '' : ` · ⚠ ${cell.unreproducible.join('; ')}`;
    io.stdout(`  ${cell.kind === 'code' ? 'cell' : 'note'} ${cell.id} · ${cell.calls} recorded call(s)${marks}\n`);
  }
  for (const warning of plan.warnings) io.stderr(`ptc import: warning: ${warning}\n`);
  if (plan.redactions > 0) io.stdout(`redacted ${plan.redactions} secret(s): API keys and tokens are never copied\n`);
  io.stdout(`wrote ${written.map(rel).join(', ')}\n`);
  if (verdicts === undefined) {
    io.stdout(`replay it: ptc notebook ${rel(plan.notebookPath)}\n`);
    return;
  }
  for (const v of verdicts) {
    const name = v.cellId ?? `cell ${v.index + 1}`;
    if (v.setupError !== undefined) io.stdout(`  ✗ ${name}: could not run: ${v.setupError}\n`);
    else if (v.comparison === undefined) io.stdout(`  · ${name}: nothing recorded to compare with\n`);
    else if (v.comparison.agrees)
      io.stdout(
        `  ✓ ${name}: the replay matches the transcript${v.comparison.skipped === undefined ? '' : ` (${v.comparison.skipped})`}\n`,
      );
    else
      io.stdout(
        `  ${v.marked ? '⚠' : '✗'} ${name}: differs from the transcript:\n${v.comparison.differences.map((d) => `      ${d}\n`).join('')}`,
      );
  }
}

function jsonReport(plan: ImportPlan, written: string[], verdicts: CellVerdict[] | undefined): Record<string, unknown> {
  return {
    notebook: plan.notebookPath,
    written,
    sources: plan.sources,
    cells: plan.cells,
    warnings: plan.warnings,
    redactions: plan.redactions,
    ...(verdicts === undefined
      ? {}
      : {
          verify: verdicts.map((v) => ({
            index: v.index,
            cellId: v.cellId,
            marked: v.marked,
            ...(v.setupError === undefined ? {} : { setupError: v.setupError }),
            ...(v.comparison === undefined ? {} : { comparison: v.comparison }),
          })),
        }),
  };
}
