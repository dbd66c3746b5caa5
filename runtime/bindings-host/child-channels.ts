import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { ChildChannel } from '../protocol/hosted-bindings.js';
import { CHANNEL_HELLO_PREFIX } from './wire.js';

// Connected channels kept ready: one for a cold start and one for the spare started after it, so spawning never
// waits for a connection.
const STOCK = 2;

// Connections to one bindings host's socket, each introduced by its token, waiting for a program child to inherit them.
export class ChildChannels {
  readonly #socketPath: string;
  readonly #ready: ChildChannel[] = [];
  #connecting = 0;
  #waiters: (() => void)[] = [];
  #disposed = false;

  constructor(socketPath: string) {
    this.#socketPath = socketPath;
  }

  // One connected channel, now, or undefined (the stock is refilled either way).
  take(): ChildChannel | undefined {
    const channel = this.#ready.shift();
    this.#fill();
    return channel;
  }

  get ready(): boolean {
    return this.#ready.length > 0;
  }

  // Resolves once a channel is in stock, or a connection attempt failed (the run then starts without one).
  async prepare(): Promise<void> {
    if (this.#ready.length > 0 || this.#disposed) return;
    const arrived = new Promise<void>((resolve) => this.#waiters.push(resolve));
    this.#fill();
    await arrived;
  }

  dispose(): void {
    this.#disposed = true;
    for (const channel of this.#ready.splice(0)) channel.socket.destroy();
    this.#wake();
  }

  #fill(): void {
    while (!this.#disposed && this.#ready.length + this.#connecting < STOCK) this.#connect();
  }

  #connect(): void {
    this.#connecting++;
    const token = randomBytes(16).toString('hex');
    const socket = net.connect(this.#socketPath);
    let settled = false;
    const done = (channel: ChildChannel | undefined): void => {
      if (settled) return;
      settled = true;
      this.#connecting--;
      if (channel !== undefined && !this.#disposed) {
        this.#ready.push(channel);
        // a stocked connection the host dropped is useless
        socket.once('close', () => {
          const index = this.#ready.indexOf(channel);
          if (index >= 0) this.#ready.splice(index, 1);
        });
      } else socket.destroy();
      this.#wake();
    };
    socket.on('error', () => done(undefined));
    socket.once('connect', () =>
      socket.write(`${CHANNEL_HELLO_PREFIX}${token}\n`, (error) => done(error ? undefined : { socket, token })),
    );
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
