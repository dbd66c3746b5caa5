import { PYTHON_ATTEMPT_HELPER } from '../../sandbox/probe-attempt.js';

// What proves the pyodide engine's isolation wherever it runs (a Node child, a browser worker): the probe program and
// the engine's name in a sandbox report. Needs nothing from Node.
export const PYODIDE_MECHANISM = 'pyodide (WebAssembly; no JavaScript bridge, host files, network or processes)';

// Every way out the probe tries from inside Pyodide: Python's own (files, sockets, processes), Pyodide's bridges to
// JavaScript (`js`, `pyodide_js`, `pyodide.ffi`, ctypes into the module's functions, objects found through gc, blocked
// built-ins made directly by `_imp` past the removable import blocker) and its Emscripten file systems (NODEFS mounts
// the host's folders). Each attempt counts as refused only when it raised.
export function pyodideProbeProgram(secret: string): string {
  return `
import gc, os, sys
SECRET = ${JSON.stringify(secret)}
${PYTHON_ATTEMPT_HELPER}

def read_open():
    with open(SECRET) as f:
        f.read()
def read_js():
    import js
    js.require("fs").readFileSync(SECRET)
def read_nodefs():
    import pyodide_js
    pyodide_js.mountNodeFS("/ptc-probe-host", os.path.dirname(SECRET))
    open("/ptc-probe-host/" + os.path.basename(SECRET)).read()
def read_fs_mount():
    import pyodide_js
    fs = pyodide_js.FS
    fs.mkdirTree("/ptc-probe-mount")
    fs.mount(fs.filesystems.NODEFS, pyodide_js.ffi.to_js({"root": "/"}), "/ptc-probe-mount")
    open("/ptc-probe-mount" + SECRET).read()
def write_open():
    with open("/etc/ptc-wasm-probe", "w") as f:
        f.write("x")
def net_udp():
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"x", ("127.0.0.1", 9))
def net_tcp():
    import socket
    socket.create_connection(("127.0.0.1", 9), timeout=2)
def net_pyfetch():
    from pyodide.http import pyfetch
    pyfetch("http://127.0.0.1:9/")
def net_js_fetch():
    import js
    js.fetch("http://127.0.0.1:9/")
def spawn_subprocess():
    import subprocess
    subprocess.run(["true"], check=True)
def spawn_system():
    if os.system("true") != 0:
        raise OSError("no shell")
def spawn_fork():
    if os.fork() == 0:
        os._exit(0)
def host_js():
    import js
    js.process.pid
def host_pyodide_js():
    import pyodide_js
    pyodide_js._module.FS
def host_ffi():
    from pyodide.ffi import to_js
    to_js({}).constructor.constructor("return globalThis")()
def host_ctypes():
    import ctypes
    ctypes.CDLL(None).emscripten_run_script(b"1")
def host_gc():
    # a function of Pyodide's bridges still working, or one of its modules still whole, somewhere in the interpreter
    bridges = ("_pyodide_core", "_pyodide._core_docs", "pyodide.ffi", "pyodide.code", "pyodide.http")
    for item in gc.get_objects():
        if callable(item) and getattr(item, "__module__", None) in bridges:
            name = getattr(item, "__name__", "")
            try:
                if name in ("to_js", "create_proxy"):
                    item({})
                    return
                if name == "run_js":
                    item("1")
                    return
            except Exception:
                pass
        if type(item) is type(sys) and getattr(item, "__name__", "") in bridges + ("js", "pyodide_js") and len(vars(item)) > 4:
            return
    raise LookupError("nothing of the embedding")
def unblock():
    sys.meta_path[:] = [f for f in sys.meta_path if getattr(f, "__name__", "") != "_Blocker"]
def fresh_builtin(name):
    import _imp
    from importlib.machinery import BuiltinImporter, ModuleSpec
    module = _imp.create_builtin(ModuleSpec(name, BuiltinImporter, origin="built-in"))
    _imp.exec_builtin(module)
    return module
def host_ctypes_unblocked():
    unblock()
    import ctypes
    ctypes.CDLL(None).emscripten_get_heap_max()
def host_builtin_ctypes():
    fresh_builtin("_ctypes").dlopen
def host_jsexception():
    # JsException, an Exception subclass, makes a JavaScript Error when called
    todo, seen = [BaseException], set()
    while todo:
        for kind in type.__subclasses__(todo.pop()):
            if kind not in seen:
                seen.add(kind)
                todo.append(kind)
    for kind in seen:
        if kind.__name__ == "JsException":
            kind("Error", "probe").constructor
            return
    raise LookupError("no JsException")
def spawn_fresh_posix():
    if fresh_builtin("posix").system("true") != 0:
        raise OSError("no shell")

attempt("read-outside:open", read_open)
attempt("read-outside:js-require", read_js)
attempt("read-outside:nodefs", read_nodefs)
attempt("read-outside:fs-mount", read_fs_mount)
attempt("write-outside:open", write_open)
attempt("network:udp", net_udp)
attempt("network:tcp", net_tcp)
attempt("network:pyfetch", net_pyfetch)
attempt("network:js-fetch", net_js_fetch)
attempt("spawn:subprocess", spawn_subprocess)
attempt("spawn:system", spawn_system)
attempt("spawn:fork", spawn_fork)
attempt("host-object:js", host_js)
attempt("host-object:pyodide-js", host_pyodide_js)
attempt("host-object:ffi", host_ffi)
attempt("host-object:ctypes", host_ctypes)
attempt("host-object:gc", host_gc)
attempt("host-object:ctypes-unblocked", host_ctypes_unblocked)
attempt("host-object:builtin-ctypes", host_builtin_ctypes)
attempt("host-object:jsexception", host_jsexception)
attempt("spawn:fresh-posix-system", spawn_fresh_posix)
return {"refused": refused}`;
}
