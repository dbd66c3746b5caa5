# about: calls the WebAssembly module's JavaScript imports around pyodide's lockdown: the import blocker taken out of sys.meta_path, blocked built-ins (_ctypes, _pyodide_core) and a fresh posix made by _imp.create_builtin, the originals hunted with gc, then a JavaScript import (emscripten_get_heap_max) called through dlsym, Emscripten's system() reached, js.WebAssembly and pyodide_js._module's exports (irrelevant on CPython: nothing there is JavaScript)
# expect: success
# value: {"control": true, "reached": []}
# control: the same re-creation helper, pointed at an allowed built-in (itertools), returns a working module
import gc, sys
EMBEDDED = sys.platform == 'emscripten'
reached = []
def attempt(name, action):
    try:
        if action() is True:
            reached.append(name)
    except BaseException:
        pass
def spec(name):
    from importlib.machinery import BuiltinImporter, ModuleSpec
    return ModuleSpec(name, BuiltinImporter, origin='built-in')
def fresh_builtin(name, create=None, execute=None):
    import _imp
    module = (create or _imp.create_builtin)(spec(name))
    (execute or _imp.exec_builtin)(module)
    return module
def unblock():
    sys.meta_path[:] = [f for f in sys.meta_path if getattr(f, '__name__', type(f).__name__) != '_Blocker']
def calls_javascript(ctypes):
    # a JavaScript function of Emscripten's library, imported by the WebAssembly module and found by dlsym
    heap_max = ctypes.CDLL(None).emscripten_get_heap_max
    heap_max.restype = ctypes.c_size_t
    return EMBEDDED and heap_max() > 0
def ctypes_from(_ctypes):
    # ctypes' own source over a given _ctypes (the import system would refuse the name)
    sys.modules['_ctypes'] = _ctypes
    sys.modules.pop('ctypes', None)
    unblock()
    import ctypes
    return ctypes
def meta_path_ctypes():
    unblock()
    import ctypes
    return calls_javascript(ctypes)
def create_builtin_ctypes():
    return calls_javascript(ctypes_from(fresh_builtin('_ctypes')))
def gc_original_create_builtin():
    # every create_builtin and exec_builtin the heap still holds (the lockdown's replacements must leave no original)
    found = {'create_builtin': [], 'exec_builtin': []}
    for item in gc.get_objects():
        for ref in [item] + gc.get_referents(item):
            if type(ref).__name__ in ('builtin_function_or_method', 'function'):
                name = getattr(ref, '__name__', '')
                if name in found and ref not in found[name]:
                    found[name].append(ref)
    for create in found['create_builtin']:
        for execute in found['exec_builtin']:
            try:
                if calls_javascript(ctypes_from(fresh_builtin('_ctypes', create, execute))):
                    return True
            except BaseException:
                pass
    return False
def create_builtin_core():
    core = fresh_builtin('_pyodide_core')
    return EMBEDDED and core.to_js([]) is not None
def fresh_posix_system():
    # Emscripten's system() returns 0 for an empty command before it reaches for a shell; the lockdown's refuses
    return EMBEDDED and fresh_builtin('posix').system('') == 0
def create_dynamic():
    import _imp, os
    path = '/tmp/ptc_embed_ext.so'
    with open(path, 'wb') as f:
        f.write(b'\0asm\1\0\0\0')
    try:
        from importlib.machinery import ModuleSpec
        _imp.create_dynamic(ModuleSpec('ptc_embed_ext', None, origin=path))
    except ImportError as e:
        # a loader that tried the file (and failed on its content) would load a real side module
        return EMBEDDED and 'not available in the pyodide engine' not in str(e)
    finally:
        os.remove(path)
    return EMBEDDED
def js_webassembly():
    unblock()
    import js
    return js.WebAssembly.Memory is not None
def module_exports():
    unblock()
    import pyodide_js
    return pyodide_js._module._emscripten_get_heap_max() > 0
def control():
    # itertools is built into both CPython and Pyodide
    return next(fresh_builtin('itertools').count(3)) == 3
attempt('meta-path-ctypes', meta_path_ctypes)
attempt('create-builtin-ctypes', create_builtin_ctypes)
attempt('gc-original-create-builtin', gc_original_create_builtin)
attempt('create-builtin-core', create_builtin_core)
attempt('fresh-posix-system', fresh_posix_system)
attempt('create-dynamic', create_dynamic)
attempt('js-webassembly', js_webassembly)
attempt('module-exports', module_exports)
return {'control': control(), 'reached': reached}
