# about: pollutes the embedding's JavaScript prototypes from Python: Object.prototype through the js module, Array.prototype through pyodide.ffi.to_js, both again with the import blocker out of sys.meta_path, through a re-created _pyodide_core, and through any JsProxy instance the heap still holds, through a JsException made from Python (irrelevant on CPython: no JavaScript object exists)
# expect: success
# value: {"control": true, "reached": []}
# control: the same pollution check, on a Python class the program owns, sees a fresh instance inherit the polluted key
import gc, sys
KEY = 'ptc_polluted_' + '{{TOKEN}}'
reached = []
def attempt(name, action):
    try:
        if action() is True:
            reached.append(name)
    except BaseException:
        pass
def polluted(proto, fresh):
    # sets KEY on a prototype and asks an object made afterwards, elsewhere, whether it inherited it
    setattr(proto, KEY, 'yes')
    try:
        return getattr(fresh(), KEY, None) == 'yes'
    finally:
        delattr(proto, KEY)
def unblock():
    sys.meta_path[:] = [f for f in sys.meta_path if getattr(f, '__name__', type(f).__name__) != '_Blocker']
def fresh_builtin(name):
    import _imp
    from importlib.machinery import BuiltinImporter, ModuleSpec
    module = _imp.create_builtin(ModuleSpec(name, BuiltinImporter, origin='built-in'))
    _imp.exec_builtin(module)
    return module
def via_js():
    import js
    return polluted(js.Object.prototype, js.Object.new)
def via_ffi(to_js):
    return polluted(to_js([]).constructor.prototype, lambda: to_js([]))
def ffi():
    from pyodide.ffi import to_js
    return via_ffi(to_js)
def unblocked_js():
    unblock()
    return via_js()
def unblocked_ffi():
    unblock()
    return ffi()
def core():
    return via_ffi(fresh_builtin('_pyodide_core').to_js)
def jsproxy_instance():
    kinds, todo = set(), [object]
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in kinds:
                kinds.add(sub)
                todo.append(sub)
    proxies = tuple(kind for kind in kinds if kind.__name__.startswith('JsProxy'))
    if not proxies:
        return False
    for item in gc.get_objects():
        for ref in [item] + gc.get_referents(item):
            if isinstance(ref, proxies):
                try:
                    if polluted(ref.constructor.prototype, lambda: ref):
                        return True
                except Exception:
                    pass
    return False
def jsexception_class():
    # JsException, still a subclass of Exception: made from Python, it would be a JavaScript Error
    todo, seen = [BaseException], set()
    while todo:
        for kind in type.__subclasses__(todo.pop()):
            if kind not in seen:
                seen.add(kind)
                todo.append(kind)
    for kind in seen:
        if kind.__name__ == 'JsException':
            # as it is, then with whatever replaced its constructor deleted
            for undo in (lambda: None, lambda: delattr(kind, '__new__')):
                try:
                    undo()
                    error = kind('Error', 'made from Python')
                    if polluted(error.constructor.prototype, lambda: kind('Error', 'again')):
                        return True
                except Exception:
                    pass
    return False
class Owned:
    pass
attempt('js-object-prototype', via_js)
attempt('ffi-array-prototype', ffi)
attempt('meta-path-js', unblocked_js)
attempt('meta-path-ffi', unblocked_ffi)
attempt('create-builtin-core', core)
attempt('jsproxy-instance', jsproxy_instance)
attempt('jsexception-class', jsexception_class)
return {'control': polluted(Owned, Owned), 'reached': reached}
