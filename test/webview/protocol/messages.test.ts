import { describe, expect, test } from 'vitest';
import {
  encodeHostToInspector,
  parseHostToInspector,
  parseInspectorToHost,
  type InspectorRun,
} from '../../../webview/protocol/inspector-messages.js';
import {
  EMPTY_INSPECTOR_STATE,
  parseInspectorState,
  persistedInspectorState,
  type InspectorState,
} from '../../../webview/protocol/inspector-state.js';
import { parseHostToRenderer, parseRendererToHost } from '../../../webview/protocol/renderer-messages.js';
import { fixturePayload } from '../fixtures/run-results.mjs';

describe('renderer messages', () => {
  test.each([
    { type: 'open-inspector', requestId: 'o#1', outputId: 'o' },
    { type: 'open-inspector', requestId: 'o#1', outputId: 'o', cellId: 'c' },
    { type: 'rerun', requestId: 'o#2', cellId: 'c' },
    { type: 'record', requestId: 'o#3', cellId: 'c' },
    { type: 'replay', requestId: 'o#4', cellId: 'c' },
    { type: 'problem-action', requestId: 'o#5', action: 'set-notebook-bindings' },
    { type: 'open-file', requestId: 'o#6', location: { path: '/w/a.bindings.ts', line: 4, column: 2 } },
  ])('the host accepts $type', (message) => {
    expect(parseRendererToHost(message)).toEqual({ ok: true, message });
  });

  test.each([
    ['an unknown type', { type: 'delete', requestId: 'x', cellId: 'c' }],
    ['a rerun without a cell', { type: 'rerun', requestId: 'x' }],
    ['a missing request id', { type: 'record', cellId: 'c' }],
    ['a non-object', 'rerun'],
    // a problem output can name only the host's closed set of actions, never a command
    [
      'a problem action outside the set',
      { type: 'problem-action', requestId: 'x', action: 'workbench.action.terminal.new' },
    ],
    [
      'a problem action given as a command',
      { type: 'problem-action', requestId: 'x', command: 'ptcPlayground.showLog' },
    ],
    ['a file without a path', { type: 'open-file', requestId: 'x', location: { path: '' } }],
    ['a file at line 0', { type: 'open-file', requestId: 'x', location: { path: '/w/a.ts', line: 0 } }],
  ])('the host rejects %s', (_name, message) => {
    expect(parseRendererToHost(message).ok).toBe(false);
  });

  test('the renderer accepts acks and cell state and rejects anything else', () => {
    expect(parseHostToRenderer({ type: 'ack', requestId: 'o#1', ok: false, message: 'no cassette' }).ok).toBe(true);
    expect(parseHostToRenderer({ type: 'cell-state', cellId: 'c', hasCassette: true, running: false }).ok).toBe(true);
    expect(parseHostToRenderer({ type: 'ack', requestId: 'o#1' }).ok).toBe(false);
    expect(parseHostToRenderer({ type: 'eval', code: '1' }).ok).toBe(false);
  });
});

describe('inspector messages and state', () => {
  const run = { id: 'r1', label: 'cell 1 · run 1', source: 'cell', payload: fixturePayload('success') };

  test('the page accepts load, add-run and error; the host accepts ready, rerun and open-cassette', () => {
    expect(parseHostToInspector({ type: 'load', runs: [run], selectedId: 'r1' }).ok).toBe(true);
    expect(parseHostToInspector({ type: 'add-run', run, select: true }).ok).toBe(true);
    expect(parseHostToInspector({ type: 'error', message: 'cassette is corrupt' }).ok).toBe(true);
    expect(parseInspectorToHost({ type: 'ready', restoredRunIds: [] }).ok).toBe(true);
    expect(parseInspectorToHost({ type: 'rerun', cellId: 'c' }).ok).toBe(true);
    expect(parseInspectorToHost({ type: 'open-cassette' }).ok).toBe(true);
  });

  test('a run whose payload is malformed is refused', () => {
    const bad = { ...run, payload: { ...run.payload, result: { ...run.payload.result, logs: 'x' } } };
    expect(parseHostToInspector({ type: 'add-run', run: bad }).ok).toBe(false);
    expect(parseInspectorToHost({ type: 'rerun' }).ok).toBe(false);
  });

  test('persisted state round-trips, and unreadable state starts empty', () => {
    const state = { version: 1, runs: [run], selectedId: 'r1', tab: 'diff', diffLeftId: 'r1', diffRightId: 'r1' };
    expect(parseInspectorState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(parseInspectorState({ version: 2, runs: [] })).toEqual(EMPTY_INSPECTOR_STATE);
    expect(parseInspectorState(undefined)).toEqual(EMPTY_INSPECTOR_STATE);
  });

  // structuredClone stands in for both hops a real message takes (JSON.stringify in the extension host, structured
  // clone into the page); both recurse, so only the JSON text envelope gets a deep run through
  test('a run with a 200 000-deep value crosses to the page and into persisted state as JSON text', () => {
    const deep: InspectorRun = {
      id: 'deep',
      label: 'cell 1 · deep',
      source: 'cell',
      payload: fixturePayload('deep-200000'),
    };
    const message = { type: 'add-run', run: deep, select: true } as const;
    expect(() => structuredClone(message)).toThrow();
    const envelope = structuredClone(encodeHostToInspector(message));
    const parsed = parseHostToInspector(envelope);
    expect(parsed.ok && parsed.message.type === 'add-run' && parsed.message.run.id).toBe('deep');
    const state: InspectorState = { version: 1, runs: [deep], selectedId: 'deep', tab: 'run' };
    const restored = parseInspectorState(structuredClone(persistedInspectorState(state)));
    expect(restored.runs.map((r) => r.id)).toEqual(['deep']);
    expect(parseHostToInspector({ type: 'json', text: '{"type":' }).ok).toBe(false);
    expect(parseInspectorState({ version: 1, json: 'not json' })).toEqual(EMPTY_INSPECTOR_STATE);
  });
});
