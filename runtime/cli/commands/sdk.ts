import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSession, renderSdk } from '../../index.js';
import { bindingsLog } from '../bindings-log.js';
import { UsageError, type CliCommand } from '../usage-error.js';

const USAGE = `ptc sdk --bindings <module> [--language typescript|python] [--declarations]`;

// `ptc sdk`: prints exactly what a harness puts in front of the model (or, with --declarations, the declarations alone).
export const sdkCommand: CliCommand = {
  name: 'sdk',
  summary: 'print the run_code description and SDK the model sees for a bindings module',
  usage: USAGE,
  async run(argv, io) {
    let values;
    try {
      ({ values } = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: false,
        options: { bindings: { type: 'string' }, language: { type: 'string' }, declarations: { type: 'boolean' } },
      }));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (values.bindings === undefined) throw new UsageError('missing --bindings <module>');
    const language = values.language ?? 'typescript';
    if (language !== 'typescript' && language !== 'python') throw new UsageError(`--language expects one of typescript|python, got "${language}"`);
    // the module is loaded (and its MCP servers asked for their tools) in a bindings host, as for a run
    const session = createSession({ bindingsPath: path.resolve(values.bindings), onBindingsLog: bindingsLog(io, values.bindings) });
    try {
      const described = await session.describe();
      if (!described.ok) throw new UsageError(described.message);
      const sdk = renderSdk(described.module, language);
      io.stdout(values.declarations === true ? sdk.declarations : sdk.text);
      return 0;
    } finally {
      await session.dispose();
    }
  },
};
