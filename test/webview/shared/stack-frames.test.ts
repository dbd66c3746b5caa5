import { describe, expect, test } from 'vitest';
import { splitFailureMessage } from '../../../webview/shared/stack-frames.js';
import { codeFrame } from '../../../webview/shared/code-frame.js';

describe('splitFailureMessage', () => {
  test('keeps the program frames of a TypeScript stack and counts the rest', () => {
    const split = splitFailureMessage(
      'TypeError: x is null\n    at program.ts:4:16\n    at node:internal/process/task_queues:95:5\n    at async program.ts:9:3',
    );
    expect(split.headline).toBe('TypeError: x is null');
    expect(split.frames).toEqual([
      { text: 'at program.ts:4:16', location: { line: 4, column: 16 } },
      { text: 'at async program.ts:9:3', location: { line: 9, column: 3 } },
    ]);
    expect(split.hiddenFrames).toBe(1);
  });

  test('reads a Python traceback: program frames with their source line, exception line as headline', () => {
    const split = splitFailureMessage(
      'Traceback (most recent call last):\n  File "/opt/bootstrap.py", line 2, in run\n    await main()\n  File "<program>", line 3, in main\n    total = 1 / 0\nZeroDivisionError: division by zero',
    );
    expect(split.headline).toBe('ZeroDivisionError: division by zero');
    expect(split.frames).toEqual([{ text: 'File "<program>", line 3, in main: total = 1 / 0', location: { line: 3 } }]);
    expect(split.hiddenFrames).toBe(1);
  });

  test('skips the Python 3.11 marker line and turns its caret into a column when the program is known', () => {
    const message =
      'Traceback (most recent call last):\n  File "<program>", line 3, in <module>\n    total = sum(values) / len(values)\n            ~~~~~~~~~~~~^~~~~~~~~~~~~\nZeroDivisionError: division by zero';
    const program = "print('start')\nif True:\n  total = sum(values) / len(values)";
    const split = splitFailureMessage(message, program);
    expect(split.headline).toBe('ZeroDivisionError: division by zero');
    expect(split.frames).toEqual([
      {
        text: 'File "<program>", line 3, in <module>: total = sum(values) / len(values)',
        location: { line: 3, column: 23 },
      },
    ]);
    expect(program.split('\n')[2]![22]).toBe('/');
    // without the program (or when the line does not match) there is no column, and never a wrong one
    expect(splitFailureMessage(message).frames[0]?.location).toEqual({ line: 3 });
    expect(splitFailureMessage(message, 'a\nb\nc').frames[0]?.location).toEqual({ line: 3 });
  });

  test('leaves a message without frames whole', () => {
    expect(splitFailureMessage('worker exited with code 7 before completing')).toEqual({
      headline: 'worker exited with code 7 before completing',
      frames: [],
      hiddenFrames: 0,
    });
  });
});

describe('codeFrame', () => {
  const program = 'one\ntwo\n\tthree(x)\nfour\nfive\nsix';

  test('shows two lines around the target and a caret prefix that keeps tabs', () => {
    const frame = codeFrame(program, { line: 3, column: 8 });
    expect(frame?.lines.map((l) => [l.number, l.target])).toEqual([
      [1, false],
      [2, false],
      [3, true],
      [4, false],
      [5, false],
    ]);
    expect(frame?.caretPrefix).toBe('\t      ');
  });

  test('has no caret without a column and nothing for a line outside the program', () => {
    expect(codeFrame(program, { line: 6 })?.caretPrefix).toBeUndefined();
    expect(codeFrame(program, { line: 7 })).toBeUndefined();
  });
});
