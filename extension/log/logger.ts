import { formatLogLine } from './format.js';

// The subset of vscode.LogOutputChannel the logger writes to (kept structural so tests can pass a recorder).
export interface LogSink {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  show(preserveFocus?: boolean): void;
}

export interface Logger {
  trace(message: string, ...details: unknown[]): void;
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  // for unexpected failures: also reveals the channel
  error(message: string, ...details: unknown[]): void;
  show(): void;
}

// Wraps the extension's one LogOutputChannel; every line goes through the scrubber.
export function createLogger(sink: LogSink, scrub: (text: string) => string): Logger {
  const write = (
    level: 'trace' | 'debug' | 'info' | 'warn' | 'error',
    message: string,
    details: readonly unknown[],
  ): void => {
    sink[level](scrub(formatLogLine(message, details)));
  };
  return {
    trace: (m, ...d) => write('trace', m, d),
    debug: (m, ...d) => write('debug', m, d),
    info: (m, ...d) => write('info', m, d),
    warn: (m, ...d) => write('warn', m, d),
    error: (m, ...d) => {
      write('error', m, d);
      sink.show(true);
    },
    show: () => sink.show(false),
  };
}
