import path from 'node:path';
import { createSession, learnOutputs, readCassettes, renderSdk, withLearnedOutputs } from '../../index.js';
import { bindingsLog } from '../bindings-log.js';
import { visibleText } from '../terminal-text.js';
import { parseCommandLine, UsageError, type CliCommand, type FlagSpecs } from '../usage-error.js';

const USAGE = `ptc sdk --bindings <module> [--language typescript|python] [--declarations] [--learn-from <cassette or folder>…]`;

const FLAGS = {
  bindings: { type: 'string', value: '<module>', help: 'the bindings module (required)' },
  language: { type: 'string', choices: ['typescript', 'python'], byDefault: 'typescript', help: "the SDK's language" },
  declarations: { type: 'boolean', help: 'print the declarations alone, without the run_code description' },
  'learn-from': {
    type: 'string',
    multiple: true,
    value: '<cassette or folder>…',
    help: 'infer output types from recorded answers',
  },
} as const satisfies FlagSpecs;

// `ptc sdk`: prints exactly what a harness puts in front of the model (or, with --declarations, the declarations
// alone).
export const sdkCommand: CliCommand = {
  name: 'sdk',
  summary: 'print the run_code description and SDK the model sees for a bindings module',
  usage: USAGE,
  flags: FLAGS,
  examples: [
    "# the description and Python SDK a model sees for the tour's bindings\nptc sdk --bindings examples/tour.bindings.ts --language python",
    '# TypeScript declarations with output types learned from cassettes\nptc sdk --bindings weather.bindings.ts --declarations --learn-from .ptc/cassettes',
  ],
  async run(argv, io) {
    const { values, positionals } = parseCommandLine(argv, FLAGS, 'sdk');
    if (values.bindings === undefined) throw new UsageError('missing --bindings <module>');
    // `--learn-from a.json b.json dir/`: the flag's first value and every positional after it
    const learnFrom = values['learn-from'] === undefined ? [] : [...values['learn-from'], ...positionals];
    if (values['learn-from'] === undefined && positionals.length > 0)
      throw new UsageError(`unexpected argument "${positionals[0] as string}"`);
    const gathered = learnFrom.length === 0 ? undefined : await readCassettes(learnFrom);
    if (gathered !== undefined && !gathered.ok) throw new UsageError(gathered.message);
    const language = values.language ?? 'typescript';
    if (language !== 'typescript' && language !== 'python')
      throw new UsageError(`--language expects one of typescript|python, got "${language}"`);
    // the module is loaded (and its MCP servers asked for their tools) in a bindings host, as for a run
    const logs = bindingsLog(io);
    const session = createSession({
      bindingsPath: path.resolve(values.bindings),
      onBindingsLog: logs.forModule(values.bindings),
    });
    try {
      const described = await session.describe();
      if (!described.ok) throw new UsageError(described.message);
      const source =
        gathered === undefined
          ? described.module
          : withLearnedOutputs(described.module, learnOutputs(gathered.cassettes));
      const sdk = renderSdk(source, language);
      // descriptions and schemas come from the module and its MCP servers: shown, never acting on the terminal
      io.stdout(visibleText(values.declarations === true ? sdk.declarations : sdk.text));
      return 0;
    } finally {
      await session.dispose();
      logs.end();
    }
  },
};
