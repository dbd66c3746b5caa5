// A minimal client for a real TS server process (the protocol VS Code's TypeScript extension speaks), for the plugin
// tests.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

interface Response {
  request_seq: number;
  success: boolean;
  message?: string;
  body?: unknown;
}

export interface TsServer {
  request<T>(command: string, args: Record<string, unknown>): Promise<T>;
  notify(command: string, args: Record<string, unknown>): void;
  close(): Promise<void>;
}

// Starts the repo's TypeScript server with the given global plugin found under probeLocation/node_modules.
export function startTsServer(options: { plugin: string; probeLocation: string; logFile: string }): TsServer {
  const require = createRequire(import.meta.url);
  const tsserver = path.join(path.dirname(require.resolve('typescript/package.json')), 'lib', 'tsserver.js');
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [
      tsserver,
      '--globalPlugins',
      options.plugin,
      '--pluginProbeLocations',
      options.probeLocation,
      '--disableAutomaticTypingAcquisition',
      '--useInferredProjectPerProjectRoot',
      '--logVerbosity',
      'verbose',
      '--logFile',
      options.logFile,
    ],
    { stdio: 'pipe' },
  );
  let seq = 0;
  const pending = new Map<number, { resolve: (r: Response) => void; reject: (e: Error) => void }>();
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    // messages are `Content-Length: N\r\n\r\n{json}`; only responses matter here
    for (;;) {
      const header = /Content-Length: (\d+)\r\n\r\n/.exec(buffer);
      if (header === null) return;
      const start = header.index + header[0].length;
      const length = Number(header[1]);
      if (Buffer.byteLength(buffer.slice(start)) < length) return;
      const body = Buffer.from(buffer.slice(start)).subarray(0, length).toString('utf8');
      buffer = Buffer.from(buffer.slice(start)).subarray(length).toString('utf8');
      const message = JSON.parse(body) as { type: string } & Response;
      if (message.type !== 'response') continue;
      pending.get(message.request_seq)?.resolve(message);
      pending.delete(message.request_seq);
    }
  });
  child.on('exit', (code) => {
    for (const p of pending.values()) p.reject(new Error(`tsserver exited with ${code}`));
    pending.clear();
  });
  const send = (command: string, args: Record<string, unknown>): number => {
    seq += 1;
    child.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    return seq;
  };
  return {
    async request<T>(command: string, args: Record<string, unknown>): Promise<T> {
      const response = await new Promise<Response>((resolve, reject) =>
        pending.set(send(command, args), { resolve, reject }),
      );
      if (!response.success) throw new Error(`${command} failed: ${response.message ?? 'no message'}`);
      return response.body as T;
    },
    notify(command, args) {
      send(command, args);
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
