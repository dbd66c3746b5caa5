"""Entry of the fresh CPython process that runs one model program (staged per run by the host).

Lifecycle on fd 3: read `boot` -> install the host's seccomp filters -> preload -> send `boot-ack` ->
read `run` -> apply limits, streams, bindings -> run the program under asyncio -> send one `done` -> exit.
A spare process stops after `boot-ack` until the host has a program for it.
Every runner internal the program could rebind is captured in a closure before the program runs.
"""

import _signal
import builtins as _builtins
import os
import sys

_exit = os._exit
RUNNER_DIR = os.path.dirname(os.path.abspath(__file__))
# -I leaves the script's own directory off sys.path
sys.path.insert(0, RUNNER_DIR)
RUNNER_MODULES = (
    "ptc_runner",
    "ptc_wire",
    "ptc_json",
    "ptc_logs",
    "ptc_errors",
    "ptc_bindings",
    "ptc_sandbox",
    "ptc_determinism",
    "ptc_program",
)


def _hook_imports(names, before=None, after=None, once=False):
    """Loads the modules in `names` as the path finder would, running `before(module)` ahead of a module's code and
    `after(module)` once it ran; `once`: the hook goes after its first module. Returns the finder (to remove it)."""
    path_finder = sys.modules["_frozen_importlib_external"].PathFinder

    class Loader:
        def __init__(self, inner):
            self.inner = inner

        def create_module(self, spec):
            return self.inner.create_module(spec)

        def exec_module(self, module):
            if before is not None:
                before(module)
            self.inner.exec_module(module)
            if after is not None:
                after(module)

    class Finder:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name not in names:
                return None
            if once:
                sys.meta_path.remove(Finder)
            spec = path_finder.find_spec(name, path)
            if spec is not None and spec.loader is not None:
                spec.loader = Loader(spec.loader)
            return spec

    sys.meta_path.insert(0, Finder)
    return Finder


def _private_builtins():
    """The runner's own copy of the builtins namespace, taken before any program code exists: a function looks builtins
    up in the namespace its module held when it was defined (CPython >= 3.10), so a program that rebinds the real ones
    (`sys.modules["builtins"].isinstance = None`, `len.__self__.BaseException = None`, `os.__builtins__[...]`) changes
    what the program and the standard library see, never what the runner's calls, logs and settlement run on. Every
    runner module is executed with it: this one from here on, the others through an import hook (removed once they
    are loaded, in main)."""
    private = dict(_builtins.__dict__)

    def install(module):
        module.__dict__["__builtins__"] = private

    return private, _hook_imports(RUNNER_MODULES, before=install)


_RUNNER_BUILTINS, _RUNNER_FINDER = _private_builtins()
# the functions below are defined after this line: they look builtins up in the private copy
__builtins__ = _RUNNER_BUILTINS


def _boot(channel):
    boot = channel.read_blocking()
    if boot.get("type") != "boot":
        _exit(72)
    # the program sees an empty environment, never the host's variables
    os.environ.clear()
    # an inherited ignore or mask would turn a CPU timeout into a silent SIGKILL
    _default_sigxcpu()
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass
    packages = boot.get("sitePackages")
    site_packages = [p for p in packages if type(p) is str] if type(packages) is list else []
    # -S skips site (its .pth hooks cost tens of milliseconds); installed packages stay importable
    sys.path.extend(p for p in site_packages if p not in sys.path)
    filters = boot.get("filters")
    filters = [f for f in filters if type(f) is str] if type(filters) is list else []
    confined = False
    problem = None
    if filters:
        try:
            import binascii

            import ptc_sandbox

            ptc_sandbox.install([binascii.a2b_base64(f) for f in filters])
            confined = True
        except Exception as error:  # ctypes missing in a minimal build, or the kernel refused
            problem = "seccomp: %s" % error
    from ptc_json import escape_string

    fields = {"confined": "true" if confined else "false"}
    if problem is not None:
        fields["error"] = escape_string(problem)
    return boot, fields


def _clamp_limit(resource, which, soft, hard, keep_gap):
    infinity = resource.RLIM_INFINITY
    current_soft, current_hard = resource.getrlimit(which)
    if current_hard != infinity:
        hard = min(hard, current_hard)
    if current_soft != infinity:
        soft = min(soft, current_soft)
    soft = min(soft, hard)
    # equal soft and hard CPU limits make the kernel SIGKILL without the SIGXCPU the host reports as timeout
    if keep_gap and soft == hard and hard >= 2:
        soft = hard - 1
    resource.setrlimit(which, (soft, hard))


# Memory kept back from the program and given back when memory runs out, so the failure can still be rendered and sent.
RESERVE_BYTES = 4 * 1024 * 1024


def _hold_reserve(resource):
    """Holds the reserve as address space: the soft RLIMIT_AS this far below the hard one (what bounds the run), raised
    back by the returned release (bound now, before the program runs). A bytearray of the same size did this by
    faulting in its 1 024 pages on every run. Without a finite limit (Darwin does not enforce it), the bytearray."""
    which = resource.RLIMIT_AS
    soft, hard = resource.getrlimit(which)
    if soft == resource.RLIM_INFINITY or soft <= 2 * RESERVE_BYTES:
        held = [bytearray(RESERVE_BYTES)]
        return held.clear
    setrlimit = resource.setrlimit
    setrlimit(which, (soft - RESERVE_BYTES, hard))

    def release(_errors=(ValueError, OSError)):
        try:
            setrlimit(which, (soft, hard))
        except _errors:
            # the program lowered its own hard limit below it: there is nothing to give back
            pass

    return release


# _signal, not signal: the wrapper module imports enum, which costs more than the whole runner
def _default_sigxcpu(
    _set=_signal.signal,
    _mask=_signal.pthread_sigmask,
    _xcpu=_signal.SIGXCPU,
    _default=_signal.SIG_DFL,
    _unblock=_signal.SIG_UNBLOCK,
):
    """SIGXCPU back to its default action (the process ends, which the host reports as the CPU timeout), unblocked;
    bound at import, before any program code runs. Returns the signal."""
    _set(_xcpu, _default)
    _mask(_unblock, [_xcpu])
    return _xcpu


def _cpu_recheck(resource):
    """The settle paths' CPU check: a program that trapped, masked or ignored SIGXCPU (or burnt CPU in reaped
    children) and used at least the effective soft limit (configured or inherited, whichever is tighter) still ends as
    the host's CPU timeout: SIGXCPU is restored to its default, unblocked and raised. Everything it uses is bound now,
    before the program runs."""
    soft = resource.getrlimit(resource.RLIMIT_CPU)[0]
    if soft == resource.RLIM_INFINITY:
        return lambda: None
    getrusage = resource.getrusage
    who = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    reset = _default_sigxcpu
    kill = os.kill
    pid = os.getpid()
    exit_now = _exit

    def check():
        used = 0.0
        for target in who:
            usage = getrusage(target)
            used += usage.ru_utime + usage.ru_stime
        if used < soft:
            return
        kill(pid, reset())
        # not reached: the default action ends the process with SIGXCPU
        exit_now(70)

    return check


def _mapped_bytes():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


# names through which a program without import statements could still reach other modules
_IMPORTING_NAMES = frozenset(
    (
        "__import__",
        "exec",
        "eval",
        "compile",
        "globals",
        "vars",
        "getattr",
        "__builtins__",
        "breakpoint",
        "__loader__",
        "__spec__",
    )
)


def _may_reach_asyncio(_ast, tree):
    """A program that imports nothing (and cannot import indirectly) never needs an event loop."""
    node_type = _ast.AST
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (_ast.Import, _ast.ImportFrom)):
            return True
        if isinstance(node, _ast.Name) and node.id in _IMPORTING_NAMES:
            return True
        if isinstance(node, _ast.Attribute) and node.attr.startswith("__"):
            return True
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, node_type):
                stack.append(value)
            elif type(value) is list:
                stack.extend(item for item in value if isinstance(item, node_type))
    return False


def _tempdir_on_import(tmpdir):
    """tempfile.gettempdir() is the private temp dir, without importing tempfile (and random, shutil) up front."""

    def point(module):
        module.tempdir = tmpdir

    _hook_imports(("tempfile",), after=point, once=True)


def _drive(coroutine, Waiter, read_frame, on_frame, cap_text):
    """Runs the program's coroutine without asyncio: every suspension is a binding call awaiting its reply."""
    error = None
    while True:
        try:
            yielded = coroutine.throw(error) if error is not None else coroutine.send(None)
        except StopIteration as stop:
            return stop.value
        error = None
        if type(yielded) is Waiter:
            while not yielded.done:
                on_frame(read_frame())
        else:
            error = RuntimeError(
                "the program awaited %s outside an event loop; `import asyncio` to use it"
                % cap_text(type(yielded).__name__)
            )


def _shadow_builtins(builtins):
    """The program's own copy of the builtins namespace: `import builtins; builtins.len = None` in the program
    changes what the program sees, not what asyncio and the runner run on."""
    shadow = type(sys)("builtins", builtins.__doc__)
    namespace = shadow.__dict__
    namespace.update(builtins.__dict__)
    real_import = builtins.__import__

    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "builtins" and level == 0:
            return shadow
        return real_import(name, globals, locals, fromlist, level)

    namespace["__import__"] = guarded_import
    return namespace


def _seal(
    modules,
    instances,
    _type=type,
    _isinstance=isinstance,
    _dict=dict,
    _list=list,
    _callable=callable,
    _setattr=setattr,
    _delattr=delattr,
):
    """Snapshots what the runner's code looks up at run time, before the program runs; returns the restore run first
    thing at settlement. The program can reach these (a binding function's __globals__, sys.stdout.buffer's methods,
    `import __main__` before the program had its own) and rebind a module global (`BaseException`), a class attribute
    (`Channel.send`) or an instance's callable (`sink._emit`); the restore puts back every such name, removes what was
    added, and leaves the instances' state (counters, buffers) as the run left it. Everything it runs with was bound
    here, as defaults or cells: nothing the program can rebind."""
    saved_dicts = []
    saved_classes = []
    for module in modules:
        namespace = module.__dict__
        saved_dicts.append((namespace, _dict(namespace)))
        for value in _list(namespace.values()):
            if _isinstance(value, _type) and value.__module__ == module.__name__:
                saved_classes.append((value, _dict(value.__dict__)))
    # the runner's private builtins (see _private_builtins): reachable through a runner function's __builtins__
    saved_builtins = _dict(_RUNNER_BUILTINS)
    runner_builtins = _RUNNER_BUILTINS
    saved_instances = []
    for instance in instances:
        attributes = instance.__dict__
        # wiring only: callables, the lock and the descriptor; everything else is the run's own state (counters,
        # buffers, which stream's entry is open) as the run left it
        saved_instances.append(
            (attributes, {k: v for k, v in attributes.items() if _callable(v) or k in ("fd", "_lock")})
        )

    def restore():
        for namespace, saved in saved_dicts:
            for key in [key for key in namespace if key not in saved]:
                del namespace[key]
            namespace.update(saved)
        for cls, saved in saved_classes:
            current = cls.__dict__
            for key in [key for key in current if key not in saved]:
                _delattr(cls, key)
            for key, value in saved.items():
                if current.get(key) is not value:
                    _setattr(cls, key, value)
        for attributes, saved in saved_instances:
            attributes.update(saved)
        runner_builtins.clear()
        runner_builtins.update(saved_builtins)

    return restore


def main():
    # names the settle path below uses, bound as locals (and so cells of its closures): the program can rebind
    # module globals (`__main__.BaseException = None`), never these
    BaseException = _builtins.BaseException
    SystemExit = _builtins.SystemExit
    MemoryError = _builtins.MemoryError
    isinstance = _builtins.isinstance
    type = _builtins.type
    int = _builtins.int
    exit_now = _exit

    from ptc_wire import CallRouter, Channel, done_error

    channel = Channel()
    boot, ack = _boot(channel)
    # preloaded before boot-ack, so a spare that reports ready is ready to run at once
    if boot.get("preload") is True:
        # a cold start imports these only when its program needs them
        import asyncio  # noqa: F401
        import linecache  # noqa: F401
        import traceback  # noqa: F401
    import _ast
    import builtins

    from ptc_bindings import Bridge, Waiter
    from ptc_errors import PROGRAM_FILE, MAIN_NAME, cap_text, describe
    from ptc_program import compile_program
    from ptc_json import Lossy, encode, string_cost
    from ptc_logs import Ledger, line_stream, log_emitter, process_stream_flusher

    channel.send_frame("boot-ack", **ack)
    run = channel.read_blocking()
    if run.get("type") != "run":
        _exit(72)

    send = channel.send
    ledger = Ledger(run["maxOutputBytes"])
    limit_message = "outer output exceeded %d bytes" % ledger.max_bytes
    state = {"settled": False}

    linger = channel.linger

    send_chunks = channel.send_chunks

    def finish(text, chunks=None):
        if not state["settled"]:
            state["settled"] = True
            if chunks is None:
                send(text)
            else:
                send_chunks(text, chunks, "}")
        # wait for the host to end this process: exiting with its replies unread would fail the host's next reply
        # write (EPIPE), and Node drops the socket, with the unread done frame, on a write error
        linger()

    def fail(kind, message, location=None):
        finish(done_error(kind, message, location))

    emit = log_emitter(ledger, state, send, send_chunks, lambda: fail("output-limit", limit_message))

    budget = ledger.remaining
    out, settle_out = line_stream("stdout", 1, emit, budget)
    err, settle_err = line_stream("stderr", 2, emit, budget)

    flush_process_streams = process_stream_flusher((sys.__stdout__, sys.__stderr__))

    def settle_streams():
        settle_out()
        settle_err()
        # what the program left buffered in the process's own stdio reaches fd 1/2 (and the host) before `done`
        flush_process_streams()

    tmpdir = boot["tmpdir"]
    if "tempfile" in sys.modules:
        sys.modules["tempfile"].tempdir = tmpdir
    else:
        _tempdir_on_import(tmpdir)
    cwd = run.get("cwd")
    try:
        os.chdir(cwd if type(cwd) is str else tmpdir)
    except OSError:
        os.chdir(tmpdir)

    import resource

    # what bounds memory in messages: the configured memoryMb, or a tighter address-space limit this process inherited
    memory_label = "memoryMb %d" % (int(run["addressSpaceBytes"]) >> 20)
    try:
        cpu = int(run["cpuSeconds"])
        _clamp_limit(resource, resource.RLIMIT_CPU, cpu, cpu + 1, True)
        address_space = int(run["addressSpaceBytes"])
        inherited_as = resource.getrlimit(resource.RLIMIT_AS)[0]
        if inherited_as != resource.RLIM_INFINITY and inherited_as < address_space:
            # the tighter limit applies (the clamp below keeps it) and is the one named
            address_space = inherited_as
            memory_label = "the address-space limit this process inherited (RLIMIT_AS %d MiB, tighter than %s)" % (
                inherited_as >> 20,
                memory_label,
            )
        mapped = _mapped_bytes()
        if mapped and address_space < mapped + 32 * 1024 * 1024:
            fail(
                "exception",
                "%s is too small for the Python interpreter, which already maps %d MiB"
                % (memory_label, (mapped >> 20) + 1),
            )
        # Darwin does not enforce RLIMIT_AS (and may refuse it): memory there is bounded by the wall clock only
        if sys.platform.startswith("linux"):
            _clamp_limit(resource, resource.RLIMIT_AS, address_space, address_space, False)
        release_reserve = _hold_reserve(resource)
    except (ValueError, OSError, KeyError, TypeError) as error:
        fail("exception", "applying resource limits failed: %s" % error)
    check_cpu = _cpu_recheck(resource)

    deterministic = run.get("deterministic")
    if type(deterministic) is dict:
        import ptc_determinism

        ptc_determinism.freeze(deterministic["epochMs"], deterministic["seed"])

    calls = CallRouter(channel, run.get("bindingsFd"))
    bridge = Bridge(calls, run["namespaces"], run["maxPendingCalls"])
    on_reply = bridge.on_reply

    def on_frame(frame):
        kind = frame.get("type")
        if kind == "reply":
            on_reply(frame)
        elif kind == "bindings-lost":
            calls.lose()
            message = frame.get("message")
            bridge.fail_pending(message if type(message) is str else "the bindings host is gone")

    source = run["program"]
    sys.stdout = out
    sys.stderr = err
    sys.argv = [PROGRAM_FILE]

    # the program may rebind builtins the runner (and the stdlib it renders with) relies on
    saved_builtins = dict(builtins.__dict__)
    restore_builtins = builtins.__dict__.update

    # filled just before the program runs (see _seal)
    restore_runner = []

    def restore():
        for undo in restore_runner:
            undo()
        restore_builtins(saved_builtins)

    def on_failure(exc):
        release_reserve()
        restore()
        check_cpu()
        message, location = describe(exc, source, isinstance(exc, MemoryError))
        settle_streams()
        if not ledger.fits(string_cost(message)):
            fail("output-limit", limit_message)
        fail("exception", message, location)

    def on_value(value):
        restore()
        check_cpu()
        settle_streams()
        out_of_memory = False
        try:
            # one walk validates, meters and encodes: a value far over what is left costs only that much
            chunks, _cost = encode(value, ledger.remaining())
        except Lossy as reason:
            fail("invalid-output", "program completion must be lossless JSON: %s" % reason)
        except MemoryError:
            # reported outside this block: the exception's traceback keeps the encoder's partial text alive
            out_of_memory = True
        if out_of_memory:
            # the text itself did not fit next to the program's own data: that is what it is, not an output limit
            release_reserve()
            fail("exception", "MemoryError: out of memory while encoding the completion (%s)" % memory_label)
        if chunks is None:
            fail("output-limit", limit_message)
        finish('{"type":"done","value":', chunks)

    try:
        code, tree = compile_program(source, _ast)
    except BaseException as error:
        on_failure(error)

    # the program's module is its own `__main__`: `import __main__` reaches its globals, not the runner's
    program_module = type(sys)("__main__")
    program_globals = program_module.__dict__
    program_globals.update({"__builtins__": _shadow_builtins(builtins), "__doc__": None})
    program_globals.update(bridge.error_classes)
    program_globals.update(bridge.objects)
    runner_module = sys.modules["__main__"]
    # the runner's own modules are out of the program's reach by import
    if sys.path and sys.path[0] == RUNNER_DIR:
        sys.path.pop(0)
    runner_modules = [runner_module]
    for name in RUNNER_MODULES:
        module = sys.modules.pop(name, None)
        if module is not None:
            runner_modules.append(module)
    if _RUNNER_FINDER in sys.meta_path:
        sys.meta_path.remove(_RUNNER_FINDER)
    restore_runner.append(
        _seal(runner_modules, [channel, calls, *calls.channels(), bridge, ledger, out.buffer, err.buffer])
    )
    # run first by every binding call: what the program rebound since (a runner module's global through a binding's
    # __globals__, a class attribute, a private builtin, a real builtin the event loop runs on) is put back before the
    # runner or asyncio looks any of it up (~20 us); the program's own namespace keeps its own builtins throughout
    bridge.guard[0] = restore
    sys.modules["__main__"] = program_module
    _PROGRAM_STARTED.append(True)

    use_asyncio = "asyncio" in sys.modules or _may_reach_asyncio(_ast, tree)
    try:
        exec(code, program_globals)
        coroutine = program_globals.pop(MAIN_NAME)()
        if use_asyncio:
            import asyncio

            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            calls.pump(loop, on_frame)
            value = loop.run_until_complete(loop.create_task(coroutine))
        else:
            value = _drive(coroutine, Waiter, calls.read_blocking, on_frame, cap_text)
    except SystemExit as exit_request:
        restore()
        settle_streams()
        code_value = exit_request.code
        if code_value is None:
            exit_now(0)
        if type(code_value) is int:
            exit_now(code_value & 0xFF)
        err.write("%s\n" % (code_value,))
        settle_streams()
        exit_now(1)
    except BaseException as error:
        on_failure(error)
    on_value(value)


def _settle_broken(error, _write=os.write, _read=os.read, _exit=_exit, _type=type):
    """The program broke the runner after it started (e.g. rebound what the settle path uses): still one `done`,
    written with what was captured at import, and no traceback: the runner's own paths are not the program's output."""
    try:
        name = "".join(c for c in _type(error).__name__[:64] if c.isalnum() or c == "_")
    except BaseException:
        name = "unknown"
    frame = (
        '{"type":"done","error":{"kind":"exception","message":"the program broke the Python runner while the run '
        'was settling (%s)"}}\n' % name
    ).encode()
    try:
        view = memoryview(frame)
        while view:
            view = view[_write(3, view) :]
        while _read(3, 1 << 16):
            pass
    finally:
        _exit(0)


# set once the program's code may run: a failure after that is the program's doing, before it a runner defect
_PROGRAM_STARTED = []

if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException as failure:
        if _PROGRAM_STARTED:
            _settle_broken(failure)
        # a runner defect before any program code ran: the host reports the exit code as worker-exit
        try:
            import traceback

            traceback.print_exc(file=sys.__stderr__)
        finally:
            _exit(75)
