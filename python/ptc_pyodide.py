"""The pyodide engine's guest runner: one model program inside Pyodide (CPython compiled to WebAssembly), with the
CPython runner's contract (ptc_runner.py): top-level await, the same binding globals and error classes, the same
output ledger, completion encoding and failure rendering.

The host (runtime/wasm/pyodide/guest.ts) only calls the functions below with strings and reads strings back: no
JavaScript object is ever handed to Python, and `lockdown` takes Pyodide's own bridges to JavaScript (the `js` and
`pyodide_js` modules, `pyodide.ffi`, the import hooks) out of the interpreter before any program exists.

Every call returns a step: a header line, {"next": <ms until the next timer> | null} or {"exit": <code>}, then the
frames to send (log, call, done), one JSON object a line.
"""

import _ast
import asyncio
import sys
from asyncio import events as _events

from ptc_bindings import Bridge
from ptc_errors import describe
from ptc_json import Lossy, decode, encode, escape_string, string_cost
from ptc_logs import Ledger, line_stream, log_emitter
from ptc_program import compile_program
from ptc_wire import done_error

ENGINE = "pyodide"
# What Python cannot do inside WebAssembly, said once where it fails
UNSUPPORTED = (
    "the pyodide engine runs CPython compiled to WebAssembly: no subprocesses, threads, sockets, C extensions or host "
    'files; use engine "native" for them'
)
# Pyodide's bridges to its JavaScript embedding, and what loads native code or packages: none is the program's
BLOCKED = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "ctypes", "_ctypes", "pyodide_http")


def _blocked(name):
    root = name.split(".", 1)[0]
    return root in BLOCKED


class _Blocker:
    """Refuses the embedding's modules by name, ahead of every other finder."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if _blocked(name):
            raise ModuleNotFoundError("No module named %r in the pyodide engine (%s)" % (name, UNSUPPORTED), name=name)
        return None


def _import_builtins():
    """Every built-in module a program may use, imported (at module import, so a memory snapshot holds them)."""
    found = {}
    for name in sys.builtin_module_names:
        if _blocked(name):
            continue
        try:
            found[name] = sys.modules.get(name) or __import__(name)
        except Exception:
            # not importable here: no program can import it either
            pass
    return found


_BUILTINS = _import_builtins()


def _seal_module_creation():
    """The blocker in sys.meta_path is the program's to remove, and _imp creates any built-in module past it (_ctypes,
    whose dlsym calls every JavaScript import of the WebAssembly module; a fresh posix with Emscripten's system): from
    here _imp hands out only the built-in modules already created (as the lockdown left them) and loads no C
    extension. The originals are dropped, not wrapped, so no closure or gc referent leads back to them."""
    import _imp

    modules = dict(_BUILTINS)
    modules.update(_import_builtins())

    def create_builtin(spec):
        name = getattr(spec, "name", None)
        module = modules.get(name)
        if module is None:
            raise ImportError("No built-in module named %r in the pyodide engine (%s)" % (name, UNSUPPORTED), name=name)
        return module

    def exec_module(module):
        return 0

    def create_dynamic(spec, file=None):
        name = getattr(spec, "name", None)
        raise ImportError("C extension %r is not available in the pyodide engine (%s)" % (name, UNSUPPORTED), name=name)

    _imp.create_builtin = create_builtin
    _imp.exec_builtin = exec_module
    _imp.create_dynamic = create_dynamic
    _imp.exec_dynamic = exec_module


def lockdown():
    """Removes Pyodide's bridges to JavaScript before any program runs: the modules leave sys.modules and their
    namespaces are emptied (gc still finds a module object, never a function in it), the import hooks that map
    JavaScript objects to modules go, and importing any of them fails naming the engine. Returns what was removed."""
    import gc
    import time

    # Pyodide's time.sleep lives in the modules emptied below: the plain one waits on the clock, as Emscripten does
    if type(time.sleep) is type(lockdown):
        monotonic = time.monotonic

        def sleep(seconds):
            end = monotonic() + seconds
            while monotonic() < end:
                pass

        time.sleep = sleep
    removed = []
    for name in list(sys.modules):
        if _blocked(name):
            module = sys.modules.pop(name)
            removed.append(name)
            namespace = getattr(module, "__dict__", None)
            if type(namespace) is dict and type(module) is type(sys):
                namespace.clear()
    # what still holds their functions: the interpreter's cached copy of a built-in module's namespace (a re-import
    # starts from it), and the functions' closures and defaults
    function_type = type(lockdown)
    for item in gc.get_objects():
        if type(item) is dict:
            name = item.get("__name__")
            if type(name) is str and _blocked(name) and "__loader__" in item:
                item.clear()
        elif type(item) is function_type and _blocked(str(item.__module__)):
            for cell in item.__closure__ or ():
                try:
                    cell.cell_contents = None
                except ValueError:
                    pass
            item.__defaults__ = None
            item.__kwdefaults__ = None
            item.__dict__.clear()
    gc.collect()

    # the JsProxy family stays reachable through object.__subclasses__(), and JsException (an Exception too) makes a
    # JavaScript Error when called: an object of the embedding, prototypes and all. Their constructors go; deleting the
    # replacement falls back to Exception.__new__, which refuses these types
    def no_javascript(*args, **kwargs):
        raise TypeError("JavaScript objects cannot be made in the pyodide engine (%s)" % UNSUPPORTED)

    kinds, todo = set(), [object]
    while todo:
        for kind in type.__subclasses__(todo.pop()):
            if kind not in kinds:
                kinds.add(kind)
                todo.append(kind)
    for kind in kinds:
        if _blocked(str(kind.__module__)) and "__new__" in kind.__dict__:
            try:
                type.__setattr__(kind, "__new__", staticmethod(no_javascript))
            except TypeError:
                pass
    # Emscripten's system() runs a host shell under Node (the child refuses child_process too): a clear error first
    import os
    import posix

    def system(command):
        raise OSError(38, "os.system is not available in the pyodide engine (%s)" % UNSUPPORTED)

    os.system = posix.system = system

    # Emscripten's _exit throws inside JavaScript: the run ends with the code asked for, as sys.exit does
    def _exit(code):
        raise SystemExit(code)

    os._exit = posix._exit = _exit
    # Emscripten's default environment names the child's path on the host (`_`): programs see an empty one, as natively
    os.environ.clear()
    _seal_module_creation()
    sys.meta_path[:] = [finder for finder in sys.meta_path if "pyodide" not in str(getattr(finder, "__module__", ""))]
    sys.meta_path.insert(0, _Blocker)
    sys.path_hooks[:] = [hook for hook in sys.path_hooks if "pyodide" not in str(getattr(hook, "__module__", ""))]
    sys.path_importer_cache.clear()
    # an interpreter started from a memory snapshot holds the snapshot's random state: each gets fresh entropy
    if "random" in sys.modules:
        sys.modules["random"].seed()
    if "tempfile" in sys.modules:
        sys.modules["tempfile"]._name_sequence = None
    # the event loop Pyodide installed schedules through JavaScript timers: programs get the host-driven loop below
    asyncio.set_event_loop_policy(_Policy())
    return ",".join(sorted(removed))


class _NoSelector:
    """Nothing to wait on: every event reaches the loop from the host, which then pumps it."""

    def select(self, timeout):
        return []

    def close(self):
        pass


class PumpLoop(asyncio.BaseEventLoop):
    """An asyncio loop with no selector and no thread: the host runs it (pump) whenever a reply or a timer is due."""

    def __init__(self):
        super().__init__()
        self._selector = _NoSelector()

    def _process_events(self, event_list):
        pass

    def _write_to_self(self):
        pass


class _Policy(asyncio.DefaultEventLoopPolicy):
    def new_event_loop(self):
        return PumpLoop()


class _Outbox:
    """The frames of one step, in order; also the bridge's channel (calls are frames like any other)."""

    def __init__(self):
        self.frames = []

    def send(self, text):
        self.frames.append(text)

    def send_chunks(self, head, chunks, tail):
        self.frames.append(head + b"".join(chunks).decode("utf-8") + tail)

    def take(self):
        frames = self.frames
        self.frames = []
        return frames


def _engine_note(exc):
    """The note naming the engine, when the failure is something only the native engine offers."""
    seen = 0
    while exc is not None and seen < 20:
        seen += 1
        text = str(exc)
        if isinstance(exc, OSError) and (
            "does not support processes" in text or exc.errno in (138, 52) or isinstance(exc, ConnectionRefusedError)
        ):
            return UNSUPPORTED
        if isinstance(exc, RuntimeError) and "can't start new thread" in text:
            return UNSUPPORTED
        exc = exc.__cause__ or exc.__context__
    return None


_run = {}


def start(boot_text):
    """Starts the program of the boot frame (node-wire's BootFrame: code, namespaces, limits); returns the first
    step."""
    boot = decode(boot_text)
    outbox = _Outbox()
    ledger = Ledger(boot["maxOutputBytes"])
    limit_message = "outer output exceeded %d bytes" % ledger.max_bytes
    state = {"settled": False, "exit": None}
    source = boot["code"]

    def finish(text):
        if not state["settled"]:
            state["settled"] = True
            outbox.send(text)

    def fail(kind, message, location=None):
        finish(done_error(kind, message, location))

    # a long entry's slices are joined into the step's one frame (outbox.send_chunks)
    emit = log_emitter(ledger, state, outbox.send, outbox.send_chunks, lambda: fail("output-limit", limit_message))

    out, settle_out = line_stream("stdout", 1, emit, ledger.remaining)
    err, settle_err = line_stream("stderr", 2, emit, ledger.remaining)

    def settle_streams():
        settle_out()
        settle_err()

    # a cushion released when memory runs out, so the failure can still be rendered
    reserve = [bytearray(1024 * 1024)]

    def on_failure(exc):
        reserve.clear()
        settle_streams()
        message, location = describe(exc, source, isinstance(exc, MemoryError))
        note = _engine_note(exc)
        if note is not None:
            message = "%s\n(%s)" % (message, note)
        if not ledger.fits(string_cost(message)):
            return fail("output-limit", limit_message)
        fail("exception", message, location)

    def on_value(value):
        settle_streams()
        try:
            chunks, _cost = encode(value, ledger.remaining())
        except Lossy as reason:
            return fail("invalid-output", "program completion must be lossless JSON: %s" % reason)
        except MemoryError:
            reserve.clear()
            return fail("exception", "MemoryError: out of memory while encoding the completion (memoryMb %s)" % memory)
        if chunks is None:
            return fail("output-limit", limit_message)
        finish('{"type":"done","value":' + b"".join(chunks).decode("utf-8") + "}")

    def on_exit(request):
        settle_streams()
        code = request.code
        if code is None:
            code = 0
        elif type(code) is not int:
            err.write("%s\n" % (code,))
            settle_streams()
            code = 1
        state["settled"] = True
        state["exit"] = code & 0xFF

    memory = boot.get("memoryMb")
    deterministic = boot.get("deterministic")
    if type(deterministic) is dict:
        import ptc_determinism

        ptc_determinism.freeze(deterministic["epochMs"], deterministic["seed"])

    bridge = Bridge(outbox, boot["namespaces"], boot["maxPendingCalls"])
    loop = PumpLoop()
    _run.update(state=state, outbox=outbox, bridge=bridge, loop=loop, on_exit=on_exit)
    sys.stdout = out
    sys.stderr = err
    sys.argv = ["<program>"]

    try:
        code, _tree = compile_program(source, _ast)
    except BaseException as error:
        on_failure(error)
        return _step()

    # the program's module is its own `__main__`, with a builtins namespace of its own
    program_module = type(sys)("__main__")
    program_globals = program_module.__dict__
    program_globals.update({"__builtins__": dict(__builtins__ if type(__builtins__) is dict else vars(__builtins__))})
    program_globals.update(bridge.error_classes)
    program_globals.update(bridge.objects)
    sys.modules["__main__"] = program_module

    def settled(task):
        if state["settled"]:
            return
        try:
            value = task.result()
        except SystemExit as request:
            return on_exit(request)
        except BaseException as error:
            return on_failure(error)
        on_value(value)

    _events._set_running_loop(loop)
    try:
        exec(code, program_globals)
        task = loop.create_task(program_globals.pop("__ptc_main__")())
        task.add_done_callback(settled)
    except BaseException as error:
        on_failure(error)
    finally:
        _events._set_running_loop(None)
    return pump()


def reply(frame_text):
    """A reply (or bindings-lost) frame from the host; the host pumps next."""
    bridge = _run.get("bridge")
    if bridge is None:
        return
    try:
        frame = decode(frame_text)
    except ValueError:
        return
    if type(frame) is not dict:
        return
    if frame.get("type") == "bindings-lost":
        message = frame.get("message")
        bridge.fail_pending(message if type(message) is str else "the bindings host is gone")
    else:
        bridge.on_reply(frame)


def pump():
    """Runs every ready callback and due timer; returns the step (frames and when to pump again)."""
    state = _run["state"]
    loop = _run["loop"]
    _events._set_running_loop(loop)
    try:
        while not state["settled"]:
            loop._run_once()
            due = loop._scheduled and loop._scheduled[0]._when <= loop.time()
            if not loop._ready and not due:
                break
    except SystemExit as request:
        # asyncio lets SystemExit out of the program's task: the program asked to end (sys.exit, os._exit)
        if not state["settled"]:
            _run["on_exit"](request)
    except BaseException as error:
        # the loop itself broke (the program rebound what it runs on): still one result
        if not state["settled"]:
            state["settled"] = True
            _run["outbox"].send(
                '{"type":"done","error":{"kind":"exception","message":%s}}'
                % escape_string("the program broke the pyodide engine's event loop: %s" % type(error).__name__)
            )
    finally:
        _events._set_running_loop(None)
    return _step()


def _step():
    state = _run["state"]
    loop = _run["loop"]
    if state["exit"] is not None:
        header = '{"exit":%d}' % state["exit"]
    elif state["settled"] or not loop._scheduled:
        header = '{"next":null}'
    else:
        header = '{"next":%r}' % max(0.0, (loop._scheduled[0]._when - loop.time()) * 1000.0)
    return "\n".join([header] + _run["outbox"].take())
