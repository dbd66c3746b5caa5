import { describe, expect, test } from 'vitest';
import { homeScrubber } from '../../../extension/log/scrub.js';
import { recordingLogger } from '../helpers/recording-logger.js';

describe('homeScrubber', () => {
  const scrub = homeScrubber('/home/ada');

  test.each([
    ['/home/ada/project/nb.ptcnb', '~/project/nb.ptcnb'],
    ['file:///home/ada/x.ts', 'file://~/x.ts'],
    ['"/home/ada" and /home/ada:1', '"~" and ~:1'],
    ['/home/adam/other', '/home/adam/other'],
  ])('%s → %s', (input, output) => {
    expect(scrub(input)).toBe(output);
  });

  test('a home of `/` scrubs nothing', () => {
    expect(homeScrubber('/')('/usr/bin/node')).toBe('/usr/bin/node');
  });
});

describe('createLogger', () => {
  test('formats errors with their stack, scrubs every line, and reveals the channel on error', () => {
    const recorder = recordingLogger(homeScrubber('/home/ada'));
    const { logger, lines } = recorder;
    logger.info('spawn /home/ada/bin/node', { cwd: '/home/ada/nb' });
    logger.error('failed', new Error('boom at /home/ada/x.ts'));
    expect(lines[0]).toEqual({ level: 'info', text: "spawn ~/bin/node { cwd: '~/nb' }" });
    expect(lines[1]?.level).toBe('error');
    expect(lines[1]?.text).toMatch(/^failed Error: boom at ~\/x\.ts\n\s+at /);
    expect(lines.some((l) => l.text.includes('/home/ada'))).toBe(false);
    expect(recorder.shown).toBe(1);
  });
});
