"""The fd-3 control channel: newline-delimited JSON frames between the host and this runner.

Host -> runner: boot, run, reply.  Runner -> host: boot-ack, log, call, done.
The field sets below are pinned against runtime/protocol/python-wire.ts by a mirror test.
"""

import os
from _collections import deque
from _thread import RLock

from ptc_json import decode, escape_string

CONTROL_FD = 3

# message type -> field names (required and optional together), for the TS <-> Python mirror test
HOST_FRAMES = {
    "boot": ("type", "filters", "tmpdir", "sitePackages", "preload"),
    "run": (
        "type",
        "program",
        "namespaces",
        "maxOutputBytes",
        "maxPendingCalls",
        "cpuSeconds",
        "addressSpaceBytes",
        "cwd",
        "deterministic",
        "bindingsFd",
    ),
    "reply": ("type", "id", "ok", "value", "message", "code", "data"),
    "bindings-lost": ("type", "message"),
}
CHILD_FRAMES = {
    "boot-ack": ("type", "confined", "error"),
    "log": ("type", "stream", "text", "open"),
    "call": ("type", "id", "global", "name", "args"),
    "done": ("type", "value", "error"),
}
DONE_ERROR_FIELDS = ("kind", "message", "location")
DONE_ERROR_KINDS = ("exception", "invalid-output", "output-limit")

# a reply larger than this is a broken host; the runner gives up instead of buffering without bound
MAX_INBOUND_FRAME = 256 * 1024 * 1024
# the host's cap on one control frame (LIMITS.maxFrameBytes), less room for a call frame's own fields
MAX_OUTBOUND_FRAME = 128 * 1024 * 1024
MAX_OUTBOUND_ARGS = MAX_OUTBOUND_FRAME - 64 * 1024


def done_error(kind, message, location=None):
    """The settling frame of a failure, as text (kind, message and an optional line/column in the program)."""
    parts = ['{"type":"done","error":{"kind":"', kind, '","message":', escape_string(message)]
    if location is not None:
        parts.append(',"location":{"line":%d' % location["line"])
        if "column" in location:
            parts.append(',"column":%d' % location["column"])
        parts.append("}")
    parts.append("}}")
    return "".join(parts)


class Channel:
    """Synchronous, thread-safe writes; reads either blocking (handshake) or from an asyncio reader."""

    def __init__(self, fd=CONTROL_FD):
        self.fd = fd
        self._lock = RLock()
        self._chunks = []
        self._buffered = 0
        self._ready = deque()
        self._write = os.write
        self._read = os.read
        self._exit = os._exit

    def send(self, text):
        data = text.encode("utf-8") + b"\n"
        view = memoryview(data)
        write = self._write
        with self._lock:
            while view:
                written = write(self.fd, view)
                view = view[written:]

    def send_chunks(self, head, chunks, tail):
        """One frame of head, UTF-8 byte chunks (any iterable, consumed as it is written) and tail: a long value or log
        entry is never joined into one copy."""
        write = self._write
        fd = self.fd
        with self._lock:
            self._write_all(write, fd, head.encode("utf-8"))
            for data in chunks:
                self._write_all(write, fd, data)
            self._write_all(write, fd, tail.encode("utf-8") + b"\n")

    @staticmethod
    def _write_all(write, fd, data):
        view = memoryview(data)
        while view:
            view = view[write(fd, view) :]

    def send_frame(self, kind, **fields):
        parts = ['{"type":', escape_string(kind)]
        for key, literal in fields.items():
            parts.append(',"%s":%s' % (key, literal))
        parts.append("}")
        self.send("".join(parts))

    def _feed(self, data):
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                break
            self._chunks.append(data[start:nl])
            line = b"".join(self._chunks)
            self._chunks = []
            self._buffered = 0
            if line:
                self._ready.append(line)
            start = nl + 1
        if start < len(data):
            rest = data[start:]
            self._chunks.append(rest)
            self._buffered += len(rest)
            if self._buffered > MAX_INBOUND_FRAME:
                self._exit(71)

    def _take(self):
        line = self._ready.popleft()
        try:
            frame = decode(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return None
        return frame if type(frame) is dict else None

    def linger(self):
        """After `done`: read and drop host traffic until the host kills this process or goes away."""
        read = self._read
        try:
            while read(self.fd, 1 << 16):
                pass
        finally:
            self._exit(0)

    def read_blocking(self, at_end=None):
        """Next well-formed frame; at the end of the stream returns `at_end`, or exits quietly when none is given
        (the host went away)."""
        while True:
            while self._ready:
                frame = self._take()
                if frame is not None:
                    return frame
            data = self._read(self.fd, 1 << 20)
            if not data:
                if at_end is not None:
                    return at_end
                self._exit(70)
            self._feed(data)

    def pump(self, loop, on_frame, on_end=None):
        """Delivers every later frame to on_frame from the event loop (no helper thread: threads cost address space)."""
        read = self._read
        fd = self.fd

        def readable():
            try:
                data = read(fd, 1 << 20)
            except BlockingIOError:
                return
            if not data:
                if on_end is not None:
                    loop.remove_reader(fd)
                    on_end()
                    return
                # the host is gone: nobody can observe this run any more
                self._exit(70)
            self._feed(data)
            while self._ready:
                frame = self._take()
                if frame is not None:
                    on_frame(frame)

        loop.add_reader(fd, readable)
        # frames that arrived together with `run` are already buffered
        while self._ready:
            frame = self._take()
            if frame is not None:
                on_frame(frame)


class CallRouter:
    """Where calls go: straight to the run's bindings host when the run names its connection, else (and once that
    host is gone) the control channel, where the runtime answers them."""

    def __init__(self, control, bindings_fd):
        self._control = control
        self._calls = None
        self._reading = None
        if type(bindings_fd) is int:
            os.set_blocking(bindings_fd, True)
            self._calls = self._reading = Channel(bindings_fd)

    def send(self, text):
        calls = self._calls
        if calls is not None:
            try:
                calls.send(text)
                return
            except OSError:
                # the host's end closed: the runtime takes over
                self._calls = None
        self._control.send(text)

    def send_chunks(self, head, chunks, tail):
        calls = self._calls
        if calls is not None:
            started = []

            def tracked():
                for data in chunks:
                    started.append(True)
                    yield data

            try:
                calls.send_chunks(head, tracked(), tail)
                return
            except OSError:
                self._calls = None
                if started:
                    # cut off mid-frame: the call stays waiting until the runtime's bindings-lost fails it
                    return
        self._control.send_chunks(head, chunks, tail)

    def lose(self):
        self._calls = None

    def channels(self):
        """The bindings host connection, if any (sealed with the runner's other instances)."""
        return [] if self._reading is None else [self._reading]

    def read_blocking(self):
        """Next frame for the program's calls: the host's replies until its connection ends, then the control
        channel."""
        reading = self._reading
        if reading is not None:
            frame = reading.read_blocking(at_end=False)
            if frame is not False:
                return frame
            self._reading = None
        return self._control.read_blocking()

    def pump(self, loop, on_frame):
        self._control.pump(loop, on_frame)
        if self._reading is not None:
            self._reading.pump(loop, on_frame, on_end=lambda: None)
