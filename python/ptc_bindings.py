"""The program's binding globals: one object per namespace whose declared functions are coroutines over fd 3.

`tools.add(...)` and `tools["my-tool"](...)` reach the same function; any other attribute is AttributeError
and any other key KeyError (lookups are intercepted before normal attribute lookup, so even `__class__`
or `__init__` route to the bridge when declared). At most `max_in_flight` calls are outstanding on the
wire; later calls queue in order instead of failing, so asyncio.gather over thousands of calls works.

Programs that import nothing cannot reach asyncio, so they run without it (importing asyncio costs more than
starting the interpreter): a call then yields a Waiter to the runner's small driver, which blocks on fd 3
until the reply arrives. Under asyncio a call awaits an ordinary future of the caller's own loop.
"""

import sys
from _collections import deque
from _thread import RLock

from ptc_json import Lossy, encode, escape_string
from ptc_wire import MAX_OUTBOUND_ARGS

_Exception = Exception
_RuntimeError = RuntimeError
_type = type
_setattr = setattr
_modules = sys.modules


def _no_guard():
    pass


class Waiter:
    """A reply awaited without an event loop: the runner's driver blocks until `done`."""

    __slots__ = ("done", "outcome")

    def __init__(self):
        self.done = False
        self.outcome = None

    def __await__(self):
        if not self.done:
            yield self
        return self.outcome


class Bridge:
    def __init__(self, channel, namespaces, max_in_flight):
        self._send = channel.send
        self._send_chunks = channel.send_chunks
        self._max = max_in_flight
        self._pending = {}
        self._queued = deque()
        self._in_flight = 0
        self._next_id = 1
        self._lock = RLock()
        # run first by every call: the runner fills it with what puts back its rebound internals (see ptc_runner)
        self.guard = [_no_guard]
        self.objects = {}
        self.error_classes = {}
        for ns in namespaces:
            self._add_namespace(ns)

    def _add_namespace(self, ns):
        global_name = ns["global"]
        declared = {}
        make_error = self._error_factory(ns.get("errorClass"))
        for name in ns["names"]:
            declared[name] = self._function(global_name, name, make_error)
        listing = tuple(sorted(declared))
        label = global_name

        class Namespace:
            __slots__ = ()

            def __getattribute__(self, attr):
                fn = declared.get(attr)
                if fn is None:
                    raise AttributeError("%s has no binding %r" % (label, attr))
                return fn

            def __getitem__(self, key):
                fn = declared.get(key) if _type(key) is str else None
                if fn is None:
                    raise KeyError(key)
                return fn

            def __contains__(self, key):
                return _type(key) is str and key in declared

            def __iter__(self):
                return iter(listing)

            def __len__(self):
                return len(listing)

            def __dir__(self):
                return list(listing)

            def __repr__(self):
                return "<bindings %s: %s>" % (label, ", ".join(listing))

        Namespace.__name__ = Namespace.__qualname__ = "%sBindings" % global_name
        self.objects[global_name] = Namespace()

    def _error_factory(self, spec):
        if spec is None:
            return lambda message, member: _RuntimeError(message)
        class_name = spec["name"]
        member_property = spec["memberNameProperty"]
        cls = _type(class_name, (_Exception,), {"__module__": "builtins", "__qualname__": class_name})
        self.error_classes[class_name] = cls

        def make(message, member):
            error = cls(message)
            _setattr(error, member_property, member)
            return error

        return make

    def _function(self, global_name, name, make_error):
        label = "%s.%s" % (global_name, name)
        guard = self.guard
        prefix = (
            '{"type":"call","id":%d,"global":'
            + escape_string(global_name).replace("%", "%%")
            + ',"name":'
            + escape_string(name).replace("%", "%%")
            + ',"args":'
        )
        bridge = self

        async def call(*args, **kwargs):
            guard[0]()
            if args and kwargs:
                raise TypeError("%s takes one JSON argument or keyword arguments, not both" % label)
            if len(args) > 1:
                raise TypeError("%s takes one JSON argument (got %d)" % (label, len(args)))
            payload = args[0] if args else (dict(kwargs) if kwargs else None)
            try:
                # one walk validates and encodes, bounded by what one control frame may carry
                args_chunks, _ = encode(payload, MAX_OUTBOUND_ARGS)
            except Lossy as reason:
                raise make_error("arguments to %s must be lossless JSON: %s" % (label, reason), name) from None
            if args_chunks is None:
                raise make_error(
                    "arguments to %s are larger than a binding call carries (%d bytes of JSON)"
                    % (label, MAX_OUTBOUND_ARGS),
                    name,
                )
            loop = _running_loop()
            waiter = Waiter() if loop is None else loop.create_future()
            bridge._submit(prefix, args_chunks, waiter)
            ok, value = await waiter
            if ok:
                return value
            message, details = value
            error = make_error(message, name)
            # a failure's details (an MCP server's JSON-RPC code and data); the member-name attribute is never replaced
            for key, detail in details:
                if key not in error.__dict__:
                    _setattr(error, key, detail)
            raise error

        call.__name__ = call.__qualname__ = name if name.isidentifier() else "binding"
        return call

    def _submit(self, prefix, args_chunks, future):
        with self._lock:
            call_id = self._next_id
            self._next_id += 1
            self._pending[call_id] = future
            frame = (prefix % call_id, args_chunks)
            if self._in_flight < self._max and not self._queued:
                self._in_flight += 1
                self._send_chunks(frame[0], frame[1], "}")
            else:
                self._queued.append(frame)

    def fail_pending(self, message):
        """The bindings host is gone: every call still waiting fails with the runtime's message."""
        with self._lock:
            waiting = sorted(self._pending)
        for call_id in waiting:
            self.on_reply({"id": call_id, "ok": False, "message": message})

    def on_reply(self, frame):
        call_id = frame.get("id")
        if _type(call_id) is not int:
            return
        with self._lock:
            future = self._pending.pop(call_id, None)
            if future is None:
                return
            self._in_flight -= 1
            if self._queued:
                self._in_flight += 1
                head, args_chunks = self._queued.popleft()
                self._send_chunks(head, args_chunks, "}")
        if frame.get("ok") is True:
            outcome = (True, frame.get("value"))
        else:
            message = frame.get("message")
            details = tuple((key, frame[key]) for key in ("code", "data") if key in frame)
            outcome = (False, (message if _type(message) is str else "binding failed", details))
        if _type(future) is Waiter:
            future.outcome = outcome
            future.done = True
            return
        loop = future.get_loop()

        def settle():
            if not future.done():
                future.set_result(outcome)

        try:
            if loop is _running_loop():
                settle()
            else:
                loop.call_soon_threadsafe(settle)
        except _RuntimeError:
            # the caller's loop is closed: nobody is waiting for this answer
            pass


def _running_loop():
    asyncio = _modules.get("asyncio")
    return None if asyncio is None else asyncio.events._get_running_loop()
