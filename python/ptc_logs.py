"""Program output: sys.stdout / sys.stderr become line streams over the one byte ledger shared with the value.

The ledger follows the host's rule exactly (runtime/output/ledger.ts): the JSON size of the logs array
(2 for "[]", one per separator, exact escape costs) plus the completion. An entry that does not fit is cut
to the prefix that does, and the run then ends as output-limit.

Pending text is kept as fragments sealed into blocks every 1024 writes, so a 25 million single-character
drip stays linear in bytes; text beyond the remaining budget is cut before it is ever joined or encoded.
"""

import io
import threading

from ptc_json import escape_string, fitting_prefix

SEAL_AT = 1024


class Ledger:
    def __init__(self, max_bytes):
        self.max_bytes = max_bytes
        self.used = 2
        self.count = 0
        self.overflowed = False

    def remaining(self):
        return self.max_bytes - self.used

    def admit(self, text):
        """Returns (admitted_text_or_None, fitted). Mirrors OutputLedger.addLog on the host."""
        if self.overflowed:
            return None, False
        separator = 1 if self.count else 0
        room = self.max_bytes - self.used - separator
        if len(text) <= room:
            literal = escape_string(text)
            cost = len(literal) if literal.isascii() else len(literal.encode("utf-8"))
            if cost <= room:
                self.used += cost + separator
                self.count += 1
                return text, True
        self.overflowed = True
        prefix = fitting_prefix(text, room)
        if prefix:
            literal = escape_string(prefix)
            self.used += len(literal.encode("utf-8")) + separator
            self.count += 1
            return prefix, False
        return None, False

    def fits(self, cost):
        return self.used + cost <= self.max_bytes


class LineStream(io.TextIOBase):
    """A text stream that turns writes into one log entry per completed line."""

    def __init__(self, name, fileno, emit, budget):
        self._name = name
        self._fileno = fileno
        self._emit = emit
        self._budget = budget
        self._fragments = []
        self._blocks = []
        self._pending = 0
        self._lock = threading.RLock()
        self.buffer = _ByteSide(self)

    # the hot path: a single-character write is an append and a length check
    def write(self, text):
        if type(text) is not str:
            if isinstance(text, str):
                text = str.__str__(text)
            else:
                raise TypeError("write() argument must be str, not %s" % type(text).__name__)
        size = len(text)
        if size == 0:
            return 0
        if size < 512 and "\n" not in text:
            fragments = self._fragments
            fragments.append(text)
            self._pending += size
            if len(fragments) >= SEAL_AT:
                self._seal()
            return size
        self._write_slow(text)
        return size

    def _write_slow(self, text):
        with self._lock:
            budget = self._budget()
            start = 0
            nl = text.find("\n")
            while nl >= 0:
                if start < nl:
                    self._fragments.append(text[start:nl])
                self._line()
                start = nl + 1
                # once the ledger is exhausted nothing more can be admitted: stop scanning a newline flood
                if self._budget() <= 0:
                    return
                nl = text.find("\n", start)
            if start < len(text):
                budget = self._budget()
                tail = text[start:] if start else text
                # a character costs at least one byte, so text past the budget can never be admitted
                if len(tail) > budget + 4:
                    tail = tail[: budget + 4]
                self._fragments.append(tail)
                self._pending += len(tail)
                if self._pending > budget:
                    self._line()
                elif len(self._fragments) >= SEAL_AT:
                    self._seal()

    def _seal(self):
        with self._lock:
            if self._pending > self._budget():
                self._line()
                return
            self._blocks.append("".join(self._fragments))
            self._fragments = []
            if len(self._blocks) >= SEAL_AT:
                self._blocks = ["".join(self._blocks)]

    def _line(self):
        fragments, blocks = self._fragments, self._blocks
        self._fragments, self._blocks, self._pending = [], [], 0
        if blocks:
            blocks.append("".join(fragments))
            line = "".join(blocks)
        else:
            line = "".join(fragments)
        self._emit(self._name, line)

    def settle(self):
        """Emits an unterminated tail as its own entry (at settlement)."""
        with self._lock:
            if self._fragments or self._blocks:
                self._line()

    def flush(self):
        return None

    def writable(self):
        return True

    def readable(self):
        return False

    def seekable(self):
        return False

    def isatty(self):
        return False

    def fileno(self):
        return self._fileno

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "strict"

    @property
    def name(self):
        return "<%s>" % self._name

    @property
    def line_buffering(self):
        return True


class _ByteSide:
    """sys.stdout.buffer: bytes are decoded as UTF-8 (split sequences kept) into the same line stream."""

    def __init__(self, stream):
        import codecs

        self._stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def write(self, data):
        data = bytes(data)
        self._stream.write(self._decoder.decode(data))
        return len(data)

    def flush(self):
        return None

    def writable(self):
        return True
