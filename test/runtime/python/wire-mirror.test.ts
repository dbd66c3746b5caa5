import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { LIMITS } from '../../../runtime/contract/limits.js';
import {
  MAX_EMBEDDED_CHARS,
  MAX_EXCEPTION_CHARS,
  MAX_PATH_KEY_CHARS,
  TRUNCATED,
} from '../../../runtime/output/diagnostic.js';
import { programWireFields } from '../../../runtime/protocol/program-wire.js';
import { PYTHON_CONTROL_FD, pythonWireFields } from '../../../runtime/protocol/python-wire.js';
import { findOnPath } from '../../../runtime/python/python-executable.js';

// The TS zod schemas and python/ptc_wire.py must name the same message types and fields: the program's own frames
// (program-wire.ts, shared with the Node child) and the Python handshake.
describe('Python wire protocol mirror', () => {
  const python = findOnPath('python3') as string;
  const script = [
    'import json, sys',
    `sys.path.insert(0, ${JSON.stringify(path.resolve('python'))})`,
    'import ptc_wire as w, ptc_errors as e',
    'print(json.dumps({"fd": w.CONTROL_FD, "host": {k: sorted(v) for k, v in w.HOST_FRAMES.items()}, "child": {k: sorted(v) for k, v in w.CHILD_FRAMES.items()}, "kinds": list(w.DONE_ERROR_KINDS), "errorFields": sorted(w.DONE_ERROR_FIELDS), "maxFrame": w.MAX_OUTBOUND_FRAME, "caps": [e.MAX_EMBEDDED, e.MAX_PATH_KEY, e.MAX_CHARS, e.TRUNCATED]}))',
  ].join('\n');
  const py = JSON.parse(execFileSync(python, ['-I', '-B', '-c', script], { encoding: 'utf8' })) as {
    fd: number;
    host: Record<string, string[]>;
    child: Record<string, string[]>;
    kinds: string[];
    errorFields: string[];
    maxFrame: number;
    caps: unknown[];
  };

  test('message types, field names, descriptor, done kinds, the frame cap and the diagnostic caps match on both sides', () => {
    const ts = pythonWireFields();
    expect(py.fd).toBe(PYTHON_CONTROL_FD);
    expect(py.host).toEqual(ts.host);
    expect(py.child).toEqual(ts.child);
    expect(py.kinds).toEqual(ts.doneKinds);
    expect(py.errorFields).toEqual(ts.doneError);
    expect(py.maxFrame).toBe(LIMITS.maxFrameBytes);
    expect(py.caps).toEqual([MAX_EMBEDDED_CHARS, MAX_PATH_KEY_CHARS, MAX_EXCEPTION_CHARS, TRUNCATED]);
  });

  test("the program's frames are exactly the shared frame schema's (log, call, done, reply, bindings-lost)", () => {
    const shared = programWireFields();
    for (const [type, fields] of Object.entries(shared.child)) expect(py.child[type], type).toEqual(fields);
    for (const [type, fields] of Object.entries(shared.host)) expect(py.host[type], type).toEqual(fields);
    expect(py.kinds).toEqual(shared.doneKinds);
  });
});
