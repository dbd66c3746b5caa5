// What the `ptc` process writes to the terminal holds no raw control or invisible characters, whoever chose the text
// (issue 24.4, 28.11): a bindings handler that logs the program's input, a program's own output and value, a
// misbehaving MCP server. The bindings' console output is capped by --max-output-bytes. Real CLI processes.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptc, scratchDir } from './cli-harness.js';

// OSC title + BEL, CSI clear screen, a C1 CSI, RLO, zero-width space and joiner, BOM, a tag character (U+E0041)
const HOSTILE = '\\x1b]0;owned\\x07\\x1b[2J\\u009b31m\\u202eevil\\u200b\\u200d\\ufeff\\u{e0041}';
// every character above, raw
const RAW = /\u0007|\u001b|\u009b|\u202e|\u200b|\u200d|\ufeff|\u{e0041}/u;

const ECHO_BINDINGS = `export default {
  tools: {
    functions: {
      echo: { mock: async ({ text }) => { console.log('handler got', text); console.error('stderr too', text); return text; } },
      flood: { mock: async ({ lines, size }) => { const line = 'x'.repeat(size); for (let i = 0; i < lines; i++) console.log(line); return lines; } },
    },
  },
};
`;

describe('terminal output', { timeout: 180_000 }, () => {
  const scratch = scratchDir('ptc-terminal-');
  const bindings = scratch.write('echo.bindings.mjs', ECHO_BINDINGS);

  it("a handler's console output that relays program text shows its control and invisible characters, in --json mode too", async () => {
    const program = scratch.write(
      'echo.ts',
      `const t = "${HOSTILE}";\nconsole.log(t);\nawait tools.echo({ text: t });\nreturn t;`,
    );
    for (const json of [false, true]) {
      const run = await ptc('run', program, '--bindings', bindings, ...(json ? ['--json'] : []));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(RAW);
      expect(run.stdout).not.toMatch(RAW);
      expect(run.stderr).toContain(
        '[bindings echo.bindings.mjs] handler got \\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202eevil\\u200b\\u200d\\ufeff\\u{e0041}',
      );
      expect(run.stderr).toContain('[bindings echo.bindings.mjs] stderr too \\x1b]0;owned');
      if (json) {
        // the JSON stays valid and parses back to the very string the program returned
        const result = JSON.parse(run.stdout) as { value: string; logs: string[] };
        expect(result.value).toBe('\x1b]0;owned\x07\x1b[2J\u009b31m\u202eevil\u200b\u200d\ufeff\u{e0041}');
        expect(result.logs[0]).toBe(result.value);
      } else {
        // the readable report: invisible characters visible in the output and the value
        expect(run.stdout).toContain(
          '  \\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202eevil\\u200b\\u200d\\ufeff\\u{e0041}\n',
        );
      }
    }
  });

  it('the bindings output is capped by --max-output-bytes, with one line saying how much was not shown', async () => {
    // 400 lines of 60 000 characters: 24 MB of handler output against a 100 000-byte cap
    const program = scratch.write('flood.ts', 'return await tools.flood({ lines: 400, size: 60000 });');
    const run = await ptc('run', program, '--bindings', bindings, '--max-output-bytes', '100000');
    expect(run.code, run.stderr.slice(0, 2000)).toBe(0);
    expect(Buffer.byteLength(run.stderr)).toBeLessThan(101_000);
    expect(run.stderr).toMatch(
      /\[bindings\] … \d+ more line\(s\) and \d+ byte\(s\) not shown \(over the 100000-byte output cap\)\n$/,
    );
  });

  it('an MCP server writing escape-laden non-JSON-RPC lines: one visible line, then a count; the calls still work', async () => {
    const server = path.resolve('test/fixtures/mcp/noisy-server.mjs');
    const noisy = scratch.write(
      'noisy.bindings.mjs',
      `export default { srv: { mcp: { command: 'node', args: [${JSON.stringify(server)}] } } };\n`,
    );
    const program = scratch.write('noisy.ts', "return await srv.greet({ name: 'Ada' });");
    const run = await ptc('run', program, '--bindings', noisy, '--mode', 'live');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(RAW);
    const lines = run.stderr.split('\n').filter((l) => l.includes('not a JSON-RPC message'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("the server wrote a line that is not a JSON-RPC message: Unexpected token '\\x1b'");
    expect(lines[1]).toContain(
      'MCP server of srv: 39 more time(s): the server wrote a line that is not a JSON-RPC message',
    );
  });

  it('an MCP server that never answers: the failure blames the server with the count of its bad lines', async () => {
    const server = path.resolve('test/fixtures/mcp/noisy-server.mjs');
    const mute = scratch.write(
      'mute.bindings.mjs',
      `export default { srv: { mcp: { command: 'node', args: [${JSON.stringify(server)}, 'mute'] } } };\n`,
    );
    const program = scratch.write('mute.ts', 'return 1;');
    const run = await ptc('run', program, '--bindings', mute);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(RAW);
    expect(run.stderr).toMatch(
      /MCP server of srv \(node .*noisy-server\.mjs mute\) could not start: .*meanwhile the server did this wrong: 40 × the server wrote a line/,
    );
    expect(run.stderr).not.toContain('top-level await');
  });
});
