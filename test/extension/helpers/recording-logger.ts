import { createLogger, type Logger } from '../../../extension/log/logger.js';

export interface RecordedLine {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  text: string;
}

// A logger whose lines land in an array (the sink the LogOutputChannel would get), with real formatting.
export function recordingLogger(scrub: (text: string) => string = (t) => t): {
  logger: Logger;
  lines: RecordedLine[];
  shown: number;
} {
  const lines: RecordedLine[] = [];
  const state = { logger: undefined as unknown as Logger, lines, shown: 0 };
  state.logger = createLogger(
    {
      trace: (text) => lines.push({ level: 'trace', text }),
      debug: (text) => lines.push({ level: 'debug', text }),
      info: (text) => lines.push({ level: 'info', text }),
      warn: (text) => lines.push({ level: 'warn', text }),
      error: (text) => lines.push({ level: 'error', text }),
      show: () => {
        state.shown++;
      },
    },
    scrub,
  );
  return state;
}
