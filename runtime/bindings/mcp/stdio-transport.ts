import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineSplitter } from './line-splitter.js';
import { preludeArgv } from '../../process/exec-prelude.js';
import { parentDeathPrefix } from '../../process/launch.js';
import { listDescendants, stopProcessTree, trackServerGroup } from './process-tree.js';
import { errorMessage } from '../../output/error-message.js';
import { within } from '../../process/timers.js';

const STDERR_TAIL_CHARS = 4_000;
// how long a server may take to exit after its stdin closed before its process group is signalled
const CLOSE_GRACE_MS = 1_000;
const STDERR_DRAIN_MS = 100;

export interface StdioTransportOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string> | undefined;
  cwd: string;
  // the longest JSON-RPC line accepted from the server (one big result is one line)
  maxMessageBytes: number;
}

// A stdio MCP transport of our own (instead of the SDK's): the server runs in its own process group so it and every
// process it started are stopped with it, messages up to `maxMessageBytes` are accepted (the SDK caps them at 10 MiB),
// and every failure carries its real cause (`failure()`), plus the server's stderr tail when it died.
export class ServerStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #child: ChildProcess | undefined;
  #stderrTail = '';
  #failure: string | undefined;
  #closed = false;
  readonly #lines: LineSplitter;

  constructor(private readonly options: StdioTransportOptions) {
    this.#lines = new LineSplitter(options.maxMessageBytes);
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  // The server's last stderr lines (what it said before it failed).
  get stderrTail(): string {
    return this.#stderrTail.trim();
  }

  // Why the connection ended, once it has: the server's exit, an oversized or malformed message, a spawn error.
  failure(): string | undefined {
    return this.#failure;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // the SDK's safe default (PATH, HOME, USER…), never the host's secrets, plus what the module gives the server
      const env = { ...getDefaultEnvironment(), ...(this.options.env ?? {}) };
      // stdio only crosses (the prelude closes what this host inherited); killed by the kernel if this process dies
      // first (it cannot stop the server then)
      const prefix = [...preludeArgv({ keep: 3 }), ...parentDeathPrefix()];
      const [command, ...args] = [...prefix, this.options.command, ...this.options.args] as [string, ...string[]];
      const child = spawn(command, args, {
        cwd: this.options.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // its own process group: stopping the server stops what it started
        detached: true,
        windowsHide: true,
      });
      this.#child = child;
      child.once('error', (error) => {
        this.#fail(`the server could not be started: ${error.message}`);
        reject(error);
        this.#finish();
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) trackServerGroup(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.#fail(
          signal !== null ? `the server was ended by ${signal}` : `the server exited with code ${code ?? 'unknown'}`,
        );
        // its last stderr lines may still be in the pipe; a grandchild holding the pipe open must not delay the end
        setTimeout(() => this.#finish(), STDERR_DRAIN_MS);
      });
      child.once('close', () => this.#finish());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stderr?.on('data', (chunk: Buffer) => {
        this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      child.stdout?.on('data', (chunk: Buffer) => this.#receive(chunk));
    });
  }

  #receive(chunk: Buffer): void {
    const outcome = this.#lines.push(chunk);
    for (const line of outcome.lines) {
      if (line.trim().length === 0) continue;
      let message: JSONRPCMessage;
      try {
        message = JSONRPCMessageSchema.parse(JSON.parse(line));
      } catch (error) {
        // a log line on stdout breaks nothing but that line; reported, never fatal
        this.onerror?.(
          new Error(`the server wrote a line that is not a JSON-RPC message: ${errorMessage(error).slice(0, 200)}`),
        );
        continue;
      }
      this.onmessage?.(message);
    }
    if (outcome.overflow) {
      this.#fail(
        `the server sent a message larger than ${this.options.maxMessageBytes} bytes (the largest result accepted)`,
      );
      void this.close();
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.#child?.stdin;
      if (stdin === undefined || stdin === null || this.#closed) return reject(new Error('not connected'));
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  // Closes stdin, then stops the server's whole process tree if it has not exited within a grace period.
  async close(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return this.#finish();
    // seen while the server lives: once it exits, a grandchild that left its group is no longer its descendant
    const descendants = child.pid !== undefined && child.exitCode === null ? listDescendants(child.pid) : [];
    child.stdin?.end();
    if (child.exitCode === null && child.signalCode === null) {
      await within(new Promise((resolve) => child.once('exit', resolve)), CLOSE_GRACE_MS, undefined);
    }
    // the group (and any descendant that left it) goes even when the server itself already exited
    if (child.pid !== undefined) await stopProcessTree(child.pid, descendants);
    this.#finish();
  }

  #fail(reason: string): void {
    this.#failure ??= reason;
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
