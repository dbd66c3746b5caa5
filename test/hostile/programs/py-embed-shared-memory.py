# about: SharedArrayBuffer and Atomics from Python: blocks the embedding's thread with Atomics.wait (through js, pyodide.ffi, the import blocker out of sys.meta_path, a re-created _pyodide_core), reads the interpreter's linear memory from JavaScript (HEAPU8), and scans everything it can read for another run's or the host's secrets (irrelevant on CPython but the scan: no JavaScript there)
# expect: success
# value: {"control": true, "reached": [], "found": []}
# control: the same blocking check sees the program's own time.sleep block it, and the same scan finds the program's own planted marker
# must-not: secret-leaked
import gc, mmap, re, sys, time
reached = []
def attempt(name, action):
    try:
        if action() is True:
            reached.append(name)
    except BaseException:
        pass
def blocks(action):
    # did the call hold this thread for at least 30 ms
    started = time.monotonic()
    action()
    return time.monotonic() - started >= 0.03
def unblock():
    sys.meta_path[:] = [f for f in sys.meta_path if getattr(f, '__name__', type(f).__name__) != '_Blocker']
def fresh_builtin(name):
    import _imp
    from importlib.machinery import BuiltinImporter, ModuleSpec
    module = _imp.create_builtin(ModuleSpec(name, BuiltinImporter, origin='built-in'))
    _imp.exec_builtin(module)
    return module
def atomics_wait(global_this):
    cells = global_this.Int32Array.new(global_this.SharedArrayBuffer.new(8))
    return blocks(lambda: global_this.Atomics.wait(cells, 0, 0, 50))
def js_atomics():
    import js
    return atomics_wait(js)
def meta_path_atomics():
    unblock()
    return js_atomics()
def ffi_globals(to_js):
    # from any JavaScript object to the global object: its constructor's constructor is Function
    return to_js([]).constructor.constructor('return globalThis')()
def ffi_atomics():
    from pyodide.ffi import to_js
    return atomics_wait(ffi_globals(to_js))
def core_atomics():
    return atomics_wait(ffi_globals(fresh_builtin('_pyodide_core').to_js))
def linear_memory():
    unblock()
    import pyodide_js
    return pyodide_js._module.HEAPU8.length > 0
# A marker of the program's own, put in its memory: the scan must find it (the control); any other run's or the
# host's marker it finds is a leak the host sees in the result (secret-leaked)
OWN = 'PTC-OWN-SECRET-' + '{{TOKEN}}'
planted = [OWN * 1]
SECRET = re.compile(r'PTC-[A-Z]+-SECRET-[0-9a-f]{8,}')
def scan():
    seen = set()
    for item in gc.get_objects():
        for ref in [item] + gc.get_referents(item):
            if type(ref) is str and 'SECRET-' in ref:
                seen.update(SECRET.findall(ref))
            elif type(ref) in (bytes, bytearray) and b'SECRET-' in ref:
                seen.update(SECRET.findall(bytes(ref).decode('latin-1')))
    # fresh anonymous memory: what an earlier run left in pages handed out again
    try:
        page = mmap.mmap(-1, 1 << 22)
    except OSError:
        return seen
    seen.update(SECRET.findall(page.read().decode('latin-1')))
    page.close()
    return seen
attempt('js-atomics-wait', js_atomics)
attempt('meta-path-atomics-wait', meta_path_atomics)
attempt('ffi-atomics-wait', ffi_atomics)
attempt('core-atomics-wait', core_atomics)
attempt('linear-memory', linear_memory)
found = scan()
control = blocks(lambda: time.sleep(0.04)) and OWN in found
return {'control': control, 'reached': reached, 'found': sorted(found - {OWN})}
