// The guest runner's Python sources, bundled into the child as text (esbuild's text loader; a web bundle can do the
// same): the child reads nothing from disk but Pyodide's own files.
import ptcBindings from '../../../python/ptc_bindings.py';
import ptcDeterminism from '../../../python/ptc_determinism.py';
import ptcErrors from '../../../python/ptc_errors.py';
import ptcJson from '../../../python/ptc_json.py';
import ptcLogs from '../../../python/ptc_logs.py';
import ptcProgram from '../../../python/ptc_program.py';
import ptcPyodide from '../../../python/ptc_pyodide.py';
import ptcWire from '../../../python/ptc_wire.py';
import type { GuestModuleName } from './guest.js';

export const BUNDLED_GUEST_MODULES: Readonly<Record<GuestModuleName, string>> = {
  ptc_errors: ptcErrors,
  ptc_json: ptcJson,
  ptc_logs: ptcLogs,
  ptc_bindings: ptcBindings,
  ptc_wire: ptcWire,
  ptc_program: ptcProgram,
  ptc_determinism: ptcDeterminism,
  ptc_pyodide: ptcPyodide,
};
