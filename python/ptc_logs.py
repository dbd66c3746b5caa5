"""Program output: sys.stdout / sys.stderr become line streams over the one byte ledger shared with the value.

The ledger follows the host's rule exactly (runtime/output/ledger.ts): the JSON size of the logs array
(2 for "[]", one per separator, exact escape costs) plus the completion. An entry that does not fit is cut
to the prefix that does, and the run then ends as output-limit.

sys.stdout is a C TextIOWrapper (line buffered) over a LineSink, so a single-character write is one C call; the
sink sees text once per line or 8 KiB chunk, keeps an unterminated line as fragments sealed into blocks every
1024 chunks (linear in bytes), and cuts text past the remaining budget before joining it.
"""

import io
from _thread import RLock

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


class LineSink(io.RawIOBase):
    """The byte end under sys.stdout / sys.stderr: turns flushed text into one log entry per completed line.

    sys.stdout itself is a C io.TextIOWrapper over this sink (line buffered), so a single-character write
    costs a C call and this Python code runs once per line or per 8 KiB chunk, never once per write.
    """

    def __init__(self, name, fileno, emit, budget):
        import codecs

        self._name = name
        self._fileno = fileno
        self._emit = emit
        self._budget = budget
        self._decode = codecs.getincrementaldecoder("utf-8")("surrogatepass").decode
        self._fragments = []
        self._blocks = []
        self._pending = 0
        self._lock = RLock()

    def writable(self):
        return True

    def fileno(self):
        return self._fileno

    def isatty(self):
        return False

    def write(self, data):
        size = len(data)
        text = self._decode(bytes(data))
        if text:
            self._text(text)
        return size

    def _text(self, text):
        with self._lock:
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


def line_stream(name, fileno, emit, budget):
    """A text stream for sys.stdout / sys.stderr; returns (stream, settle)."""
    sink = LineSink(name, fileno, emit, budget)
    stream = io.TextIOWrapper(sink, encoding="utf-8", errors="surrogatepass", line_buffering=True)
    flush = stream.flush

    def settle():
        try:
            flush()
        except (ValueError, OSError):
            pass
        sink.settle()

    return stream, settle
