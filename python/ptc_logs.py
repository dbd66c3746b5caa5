"""Program output: sys.stdout / sys.stderr become line streams over the one byte ledger shared with the value.

The ledger follows the host's rule exactly (runtime/output/ledger.ts): the JSON size of the logs array
(2 for "[]", one per separator, exact escape costs) plus the completion. An entry that does not fit is cut
to the prefix that does, and the run then ends as output-limit.

sys.stdout is a C TextIOWrapper (line buffered) over a LineSink, so a short write is one C call and the sink sees text
once per line or 8 KiB chunk; it keeps an unterminated line as fragments sealed into blocks every 1024 chunks (linear
in bytes). Long text never goes through a whole-text copy: a str write of BIG_WRITE characters or more skips the
wrapper's encode (the sink takes the str itself), bytes are decoded a slice at a time, text past the remaining budget is
cut before anything is built from it, and a long entry is measured, cut and written as escaped slices of SLICE
characters. So whatever the memory limit, output past the cap ends as output-limit with the fitting prefix.
"""

import io
from _thread import RLock

from ptc_json import escape_string

SEAL_AT = 1024
# characters measured, escaped and written at a time for long entries
SLICE = 1 << 16
# str writes at least this long bypass the TextIOWrapper (which would encode the whole text, then the sink decode it)
BIG_WRITE = 1 << 16
# bytes decoded at a time from a bytes write
DECODE_SLICE = 1 << 20


def _slice_cost(text, start, end):
    """Bytes of the escaped text[start:end] without quotes (escapes are per code point, so slices add up)."""
    literal = escape_string(text[start:end])
    return (len(literal) if literal.isascii() else len(literal.encode("utf-8"))) - 2


class Pieces:
    """A long log entry as segments (text, start, end) of strings it was written with, never joined."""

    __slots__ = ("segments",)

    def __init__(self, segments):
        self.segments = segments

    def escaped(self):
        """The entry's escaped UTF-8 bytes (no quotes), a slice at a time."""
        for text, start, end in self.segments:
            for at in range(start, end, SLICE):
                yield escape_string(text[at : min(end, at + SLICE)])[1:-1].encode("utf-8")


class Ledger:
    def __init__(self, max_bytes):
        self.max_bytes = max_bytes
        self.used = 2
        self.count = 0
        self.overflowed = False
        # the stream whose last entry is an unterminated line its next text continues (an explicit flush)
        self.open = None

    def remaining(self):
        return self.max_bytes - self.used

    def admit(self, line, stream, open_entry=False):
        """Returns (admitted_or_None, fitted) for a str or Pieces. Mirrors OutputLedger.admit on the host: text of the
        stream whose last entry is open continues that entry (its quotes are paid already)."""
        if self.overflowed:
            return None, False
        continues = self.open == stream and self.count > 0
        self.open = stream if open_entry else None
        # what this text adds besides its own literal: a separator for a new entry, minus the quotes for a continuation
        charge = -2 if continues else (1 if self.count else 0)
        room = self.max_bytes - self.used - charge
        if type(line) is str:
            if len(line) <= SLICE:
                return self._admit_short(line, room, charge, continues)
            line = Pieces([(line, 0, len(line))])
        return self._admit_pieces(line, room, charge, continues)

    def _settle(self, cost, charge, continues):
        self.used += cost + charge
        if not continues:
            self.count += 1

    def _overflow(self):
        self.overflowed = True
        self.open = None

    def _admit_short(self, text, room, charge, continues):
        if len(text) <= room:
            literal = escape_string(text)
            cost = len(literal) if literal.isascii() else len(literal.encode("utf-8"))
            if cost <= room:
                self._settle(cost, charge, continues)
                return text, True
        self._overflow()
        prefix = _fitting_prefix(text, room)
        if prefix:
            literal = escape_string(prefix)
            self._settle(len(literal.encode("utf-8")), charge, continues)
            return prefix, False
        return None, False

    def _admit_pieces(self, pieces, room, charge, continues):
        """Measured a slice at a time until one does not fit; only that slice is searched for the cut."""
        cost = 2
        kept = []
        for text, start, end in pieces.segments:
            at = start
            while at < end:
                stop = min(end, at + SLICE)
                piece = _slice_cost(text, at, stop)
                if cost + piece > room:
                    self._overflow()
                    lo, hi = at, min(stop, at + max(room - cost, 0))
                    while lo < hi:
                        mid = (lo + hi + 1) // 2
                        if cost + _slice_cost(text, at, mid) <= room:
                            lo = mid
                        else:
                            hi = mid - 1
                    if lo > at:
                        cost += _slice_cost(text, at, lo)
                        at = lo
                    if at > start:
                        kept.append((text, start, at))
                    if not kept:
                        return None, False
                    self._settle(cost, charge, continues)
                    return Pieces(kept), False
                cost += piece
                at = stop
            kept.append((text, start, end))
        self._settle(cost, charge, continues)
        return pieces, True

    def fits(self, cost):
        return self.used + cost <= self.max_bytes


def _fitting_prefix(text, budget):
    """Longest prefix of a short text whose JSON string cost is at most budget."""
    if budget < 2:
        return ""
    if len(text) > budget:
        text = text[:budget]
    if _slice_cost(text, 0, len(text)) + 2 <= budget:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _slice_cost(text, 0, mid) + 2 <= budget:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


class LineSink(io.RawIOBase):
    """The byte end under sys.stdout / sys.stderr: turns flushed text into one log entry per completed line.

    sys.stdout itself is a LineStream (a C io.TextIOWrapper) over this sink (line buffered), so a short write costs a C
    call and this Python code runs once per line or per 8 KiB chunk, never once per write.
    """

    def __init__(self, name, fileno, emit, budget):
        import codecs

        self._name = name
        self._fileno = fileno
        self._emit = emit
        self._budget = budget
        self._decode = codecs.getincrementaldecoder("utf-8")("surrogatepass").decode
        # strs, or (text, start, end) segments of long writes (never copied)
        self._fragments = []
        self._blocks = []
        self._pending = 0
        self._segments = False
        self._lock = RLock()
        # flushes of our own (handing the wrapper's bytes over) are not the program's explicit flush
        self._quiet = 0

    def writable(self):
        return True

    def fileno(self):
        return self._fileno

    def isatty(self):
        return False

    def write(self, data):
        size = len(data)
        if size <= DECODE_SLICE:
            text = self._decode(data)
            if text:
                self._text(text)
            return size
        # a long bytes write is decoded a slice at a time, and no further than the budget can still take
        view = memoryview(data)
        for at in range(0, size, DECODE_SLICE):
            text = self._decode(view[at : at + DECODE_SLICE])
            if text:
                self._text(text)
            if self._budget() <= 0:
                break
        return size

    def write_text(self, text):
        """A long str write, taken as it is (see LineStream.write)."""
        self._text(text)

    def _text(self, text):
        with self._lock:
            start = 0
            size = len(text)
            while True:
                nl = text.find("\n", start)
                end = size if nl < 0 else nl
                if start < end:
                    self._add(text, start, end)
                if nl < 0:
                    return
                self._line()
                start = nl + 1
                # once the ledger is exhausted nothing more can be admitted: stop scanning a newline flood
                if self._budget() <= 0:
                    return

    def _add(self, text, start, end):
        budget = self._budget()
        # a character costs at least one byte, so text past the budget can never be admitted
        room = budget + 4 - self._pending
        if end - start > room:
            end = start + max(room, 0)
        if end > start:
            if end - start >= SLICE:
                self._fragments.append((text, start, end))
                self._segments = True
            else:
                self._fragments.append(text if start == 0 and end == len(text) else text[start:end])
            self._pending += end - start
        if self._pending > budget:
            self._line()
        elif len(self._fragments) >= SEAL_AT:
            self._seal()

    def _seal(self):
        if self._segments:
            # segments stay as they are; runs of short fragments between them become one string
            merged = []
            run = []
            for fragment in self._fragments:
                if type(fragment) is str:
                    run.append(fragment)
                    continue
                if run:
                    merged.append("".join(run))
                    run = []
                merged.append(fragment)
            if run:
                merged.append("".join(run))
            self._fragments = merged
            return
        self._blocks.append("".join(self._fragments))
        self._fragments = []
        if len(self._blocks) >= SEAL_AT:
            self._blocks = ["".join(self._blocks)]

    def flush(self):
        """An explicit flush (sys.stdout.flush(), print(..., flush=True)): an unterminated line reaches the host now,
        as an open entry the stream's next text continues, so a fragment flushed before a hang is in the result."""
        if self._quiet:
            return
        with self._lock:
            if self._fragments or self._blocks:
                self._line(True)

    def _line(self, open_entry=False):
        fragments, blocks, segments = self._fragments, self._blocks, self._segments
        self._fragments, self._blocks, self._pending, self._segments = [], [], 0, False
        if segments:
            line = Pieces(
                [(b, 0, len(b)) for b in blocks] + [f if type(f) is tuple else (f, 0, len(f)) for f in fragments]
            )
        elif blocks:
            blocks.append("".join(fragments))
            line = "".join(blocks)
        else:
            line = "".join(fragments)
        self._emit(self._name, line, open_entry)

    def settle(self):
        """Emits an unterminated tail as its own entry (at settlement)."""
        with self._lock:
            if self._fragments or self._blocks:
                self._line()


class LineStream(io.TextIOWrapper):
    """sys.stdout / sys.stderr: the C TextIOWrapper for short writes; a long str goes to the sink as it is."""

    def write(
        self, s, _write=io.TextIOWrapper.write, _flush=io.TextIOWrapper.flush, _str=str, _type=type, _len=str.__len__
    ):
        if _type(s) is _str and _len(s) >= BIG_WRITE:
            sink = self.buffer
            # what the wrapper still holds goes first, in order (not an explicit flush)
            sink._quiet += 1
            try:
                _flush(self)
            finally:
                sink._quiet -= 1
            sink.write_text(s)
            return _len(s)
        return _write(self, s)


def process_stream_flusher(originals):
    """Returns flush(): writes out what the process's own stdio objects still buffer, before the run settles (the runner
    ends with os._exit, which flushes nothing). `originals` are sys.__stdout__ and sys.__stderr__ as the runner found
    them (a program may reconfigure them with write_through=False); any other text or buffered stream the program
    opened on fd 1 or 2 (open(1, "w", closefd=False)) is found through the garbage collector. Only exact io classes
    over a FileIO are flushed: their flush is C code, never the program's."""
    import gc
    from itertools import compress

    text_type, file_type = io.TextIOWrapper, io.FileIO
    buffered_types = (io.BufferedWriter, io.BufferedRandom)
    wanted = frozenset((text_type,) + buffered_types).__contains__
    get_objects = gc.get_objects
    _type = type
    _map = map

    def standard_fd(stream):
        kind = _type(stream)
        if kind is text_type:
            stream = stream.buffer
            kind = _type(stream)
        if kind in buffered_types:
            stream = stream.raw
            kind = _type(stream)
        if kind is not file_type or stream.closed:
            return None
        fd = stream.fileno()
        return fd if fd in (1, 2) else None

    def flush():
        targets = [stream for stream in originals if stream is not None]
        try:
            # filtered in C (compress, map): a fresh interpreter holds thousands of objects, a program maybe millions
            objects = get_objects()
            targets.extend(compress(objects, _map(wanted, _map(_type, objects))))
            del objects
        except MemoryError:
            pass
        seen = set()
        for stream in targets:
            if id(stream) in seen:
                continue
            seen.add(id(stream))
            try:
                if standard_fd(stream) is not None:
                    _type(stream).flush(stream)
            except Exception:
                # a closed or broken stream has nothing more to give
                pass

    return flush


def log_emitter(ledger, state, send, send_chunks, on_full):
    """The `emit` of line_stream for both drivers (the native runner, the pyodide one): admits a line to the ledger and
    sends its log frame; `send_chunks` takes a long entry's escaped slices (streamed or joined, as the driver's wire
    does); `on_full` ends the run when the entry did not fit. Nothing is sent once `state["settled"]`."""

    def emit(stream, line, open_entry=False):
        if state["settled"]:
            return
        # the host keeps the same ledger: an open text is continued by the stream's next text there too
        admitted, fitted = ledger.admit(line, stream, open_entry)
        end = ',"open":true}' if open_entry and fitted else "}"
        if type(admitted) is str:
            send('{"type":"log","stream":"%s","text":%s%s' % (stream, escape_string(admitted), end))
        elif admitted is not None:
            # a long entry is escaped and written a slice at a time
            send_chunks('{"type":"log","stream":"%s","text":"' % stream, admitted.escaped(), '"' + end)
        if not fitted:
            on_full()

    return emit


def line_stream(name, fileno, emit, budget):
    """A text stream for sys.stdout / sys.stderr; returns (stream, settle)."""
    sink = LineSink(name, fileno, emit, budget)
    stream = LineStream(sink, encoding="utf-8", errors="surrogatepass", line_buffering=True)
    flush = stream.flush

    def settle():
        # the wrapper's last bytes are handed over quietly: settlement ends the line, it does not leave it open
        sink._quiet += 1
        try:
            flush()
        except (ValueError, OSError):
            pass
        finally:
            sink._quiet -= 1
        sink.settle()

    return stream, settle
