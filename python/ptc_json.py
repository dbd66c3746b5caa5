"""Lossless JSON for the PTC runner: exact-type checks, ECMAScript number spelling, any nesting depth.

Both directions are iterative so a 10 000-deep value crosses without touching the recursion limit.
A value is lossless when it is None, bool, str, a finite float other than -0.0, an int that a double
represents exactly, or an exact list / dict (string keys) of such values. Subclasses, tuples, sets and
every other object are rejected, so what the host receives is exactly what the program built.
"""

import _json

from ptc_errors import MAX_PATH_KEY, cap_middle, cap_text

__all__ = ["Lossy", "encode", "decode", "string_cost", "escape_string", "fitting_prefix", "js_number"]

# the C accelerators behind the json package: importing json itself (and re) costs more than this whole module
_json_str = _json.encode_basestring  # escapes exactly like JSON.stringify (non-ASCII kept raw)
_scanstring = _json.scanstring
_float_repr = float.__repr__
_int_repr = int.__repr__
_SAFE = 2**53
_END = object()


class Lossy(ValueError):
    """A value (or part of one) that JSON cannot carry without loss."""


def escape_string(text):
    """JSON string literal exactly as JSON.stringify spells it (lone surrogates become \\uXXXX escapes)."""
    out = _json_str(text)
    if not out.isascii():
        try:
            out.encode("utf-8")
        except UnicodeEncodeError:
            out = "".join("\\u%04x" % ord(c) if "\ud800" <= c <= "\udfff" else c for c in out)
    return out


def _surrogate_pair(text):
    """The first high surrogate code point directly followed by a low one, as "U+D83D U+DE00", else None."""
    high = None
    for c in text:
        if "\ud800" <= c <= "\udbff":
            high = c
        elif high is not None and "\udc00" <= c <= "\udfff":
            return "U+%04X U+%04X" % (ord(high), ord(c))
        else:
            high = None
    return None


class _PairedSurrogates(Exception):
    """A Python string the host would read differently (see _literal)."""


def _literal(text):
    """escape_string for a value that must cross losslessly: a high and a low surrogate code point in a row are two
    characters in Python but one (an astral character) once the JSON is read by the host, so two different strings
    (and two dict keys) would collapse into one. Lone surrogates cross as \\uXXXX escapes and read back the same."""
    out = _json_str(text)
    if not out.isascii():
        try:
            out.encode("utf-8")
        except UnicodeEncodeError:
            pair = _surrogate_pair(text)
            if pair is not None:
                raise _PairedSurrogates(pair) from None
            out = "".join("\\u%04x" % ord(c) if "\ud800" <= c <= "\udfff" else c for c in out)
    return out


def _byte_len(literal):
    return len(literal) if literal.isascii() else len(literal.encode("utf-8"))


def string_cost(text):
    """Bytes the string costs inside serialized JSON output (quotes and escapes included)."""
    return _byte_len(escape_string(text))


def fitting_prefix(text, budget):
    """Longest prefix of text whose JSON string cost is at most budget (cut on a code point)."""
    if budget < 2:
        return ""
    # every character costs at least one byte: longer prefixes cannot fit, so never escape more
    if len(text) > budget:
        text = text[:budget]
    if string_cost(text) <= budget:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if string_cost(text[:mid]) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


def js_number(value):
    """A finite float spelled like ECMAScript Number::toString (shortest round-trip digits)."""
    if value == 0:
        return "0"
    text = _float_repr(value)
    sign = ""
    if text[0] == "-":
        sign, text = "-", text[1:]
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    if fraction == "0":
        fraction = ""
    shift = int(exponent) if exponent else 0
    lead = whole.lstrip("0")
    if lead:
        point = len(lead) + shift
    else:
        point = shift - (len(fraction) - len(fraction.lstrip("0")))
    digits = (lead + fraction).lstrip("0").rstrip("0") or "0"
    k = len(digits)
    n = point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    tail = ("e+" if e >= 0 else "e-") + str(abs(e))
    return sign + (digits if k == 1 else digits[0] + "." + digits[1:]) + tail


def _scalar(value, kind):
    if kind is str:
        return escape_string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        if -_SAFE <= value <= _SAFE:
            return str(value)
        try:
            as_float = float(value)
        except OverflowError:
            raise Lossy("an integer too large for a double") from None
        if int(as_float) != value:
            raise Lossy("an integer a double cannot represent exactly (%d)" % value)
        return js_number(as_float)
    if kind is float:
        if value != value:
            raise Lossy("NaN")
        if value in (float("inf"), float("-inf")):
            raise Lossy("Infinity" if value > 0 else "-Infinity")
        if value == 0 and str(value)[0] == "-":
            raise Lossy("-0")
        return js_number(value)
    return None


def _describe(value):
    kind = type(value)
    if kind is tuple:
        return "a tuple"
    if kind in (set, frozenset):
        return "a set"
    # a class name is program text
    name = cap_text(kind.__name__)
    if isinstance(value, (dict, list, str, int, float)):
        return "an instance of %s (a subclass; only exact dict, list, str, int and float cross)" % name
    return "an object of type %s" % name


def _pair_reason(pair):
    return "a string with a surrogate pair written as two code points (%s); JSON would carry it as one character" % pair


def _path(stack):
    """The path of the value being read; keys are program text, so each is capped and so is the whole path."""
    parts = ["$"]
    for frame in stack:
        key = frame[2]
        parts.append("[%d]" % key if type(key) is int else "." + cap_text(key, MAX_PATH_KEY))
    return cap_middle("".join(parts))


# the text is gathered in UTF-8 chunks of about this many characters
_CHUNK_CHARS = 1 << 16
_UNBOUNDED = float("inf")


def encode(root, budget=None):
    """Validates and serializes root in one walk; returns (chunks, byte_cost) with chunks a list of UTF-8 byte strings,
    or (None, cost so far) once the cost is certainly past budget.

    Raises Lossy with a path ("$.a[2] is NaN") for anything JSON cannot carry exactly. Memory beyond the text itself is
    bounded by the nesting depth: containers are walked through their iterators, never copied or listed, and the text
    is sealed into UTF-8 chunks as it grows, so a value far over the budget costs only the budget.
    """
    limit = _UNBOUNDED if budget is None else budget
    chunks = []
    parts = []
    put = parts.append
    # bytes: sealed chunks exactly plus one per pending character (a lower bound of what they will cost)
    sealed = 0
    pending = 0
    active = set()
    # frames: [iterator, is_dict, position (index, or key), container id, items written]
    stack = []
    json_str = _json_str
    int_repr = _int_repr
    safe = _SAFE
    value = root
    while True:
        kind = type(value)
        if kind is str:
            # every character costs at least one byte: a string past the budget is never escaped
            if sealed + pending + len(value) + 2 > limit:
                return None, sealed + pending + len(value) + 2
            text = json_str(value)
            if not text.isascii():
                try:
                    text = _literal(value)
                except _PairedSurrogates as pair:
                    raise Lossy("%s is %s" % (_path(stack), _pair_reason(pair))) from None
        elif kind is int and -safe <= value <= safe:
            text = int_repr(value)
        elif kind is list or kind is dict:
            ident = id(value)
            if ident in active:
                raise Lossy("%s is a cycle" % _path(stack))
            active.add(ident)
            if kind is list:
                stack.append([iter(value), False, -1, ident, 0])
                text = "["
            else:
                stack.append([iter(value.items()), True, "", ident, 0])
                text = "{"
        else:
            try:
                text = _scalar(value, kind)
            except Lossy as reason:
                raise Lossy("%s is %s" % (_path(stack), reason)) from None
            if text is None:
                try:
                    description = _describe(value)
                except Exception:
                    description = "an unrenderable object"
                raise Lossy("%s is %s" % (_path(stack), description))
        put(text)
        pending += len(text)
        if pending >= _CHUNK_CHARS:
            chunk = "".join(parts).encode("utf-8")
            parts.clear()
            chunks.append(chunk)
            sealed += len(chunk)
            pending = 0
        if sealed + pending > limit:
            return None, sealed + pending
        # the next value: scalars of the open container are written in place, containers are entered
        value = _END
        while stack:
            frame = stack[-1]
            iterator = frame[0]
            try:
                if frame[1]:
                    for key, item in iterator:
                        if type(key) is not str:
                            raise Lossy(
                                "%s has a non-string key (%s)" % (_path(stack[:-1]), cap_text(type(key).__name__))
                            )
                        frame[2] = key
                        if sealed + pending + len(key) + 4 > limit:
                            return None, sealed + pending + len(key) + 4
                        literal = json_str(key)
                        if not literal.isascii():
                            try:
                                literal = _literal(key)
                            except _PairedSurrogates as pair:
                                raise Lossy(
                                    "%s has a key that is %s" % (_path(stack[:-1]), _pair_reason(pair))
                                ) from None
                        if frame[4]:
                            put(",")
                            pending += 1
                        frame[4] = 1
                        put(literal)
                        put(":")
                        pending += len(literal) + 1
                        kind = type(item)
                        if kind is int and -safe <= item <= safe:
                            text = int_repr(item)
                        elif kind is str and len(item) < _CHUNK_CHARS:
                            text = json_str(item)
                            if not text.isascii():
                                # the general path names the string's path and checks it
                                value = item
                                break
                        else:
                            value = item
                            break
                        put(text)
                        pending += len(text)
                        if pending >= _CHUNK_CHARS:
                            chunk = "".join(parts).encode("utf-8")
                            parts.clear()
                            chunks.append(chunk)
                            sealed += len(chunk)
                            pending = 0
                        if sealed + pending > limit:
                            return None, sealed + pending
                else:
                    for item in iterator:
                        frame[2] += 1
                        if frame[2]:
                            put(",")
                            pending += 1
                        kind = type(item)
                        if kind is int and -safe <= item <= safe:
                            text = int_repr(item)
                        elif kind is str and len(item) < _CHUNK_CHARS:
                            text = json_str(item)
                            if not text.isascii():
                                # the general path names the string's path and checks it
                                value = item
                                break
                        else:
                            value = item
                            break
                        put(text)
                        pending += len(text)
                        if pending >= _CHUNK_CHARS:
                            chunk = "".join(parts).encode("utf-8")
                            parts.clear()
                            chunks.append(chunk)
                            sealed += len(chunk)
                            pending = 0
                        if sealed + pending > limit:
                            return None, sealed + pending
            except RuntimeError:
                raise Lossy("%s changed size while it was serialized" % _path(stack)) from None
            if value is not _END:
                break
            stack.pop()
            active.discard(frame[3])
            put("}" if frame[1] else "]")
            pending += 1
        else:
            break
    if parts:
        chunk = "".join(parts).encode("utf-8")
        chunks.append(chunk)
        sealed += len(chunk)
    if sealed > limit:
        return None, sealed
    return chunks, sealed


def _parse_int(text):
    value = int(text)
    # the host's numbers are doubles: a long integer literal means the double nearest to it
    if -_SAFE <= value <= _SAFE:
        return value
    return int(float(text))


def _reject_constant(name):
    raise ValueError("%s is not JSON" % name)


class _ScanContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = staticmethod(_parse_int)
    parse_constant = staticmethod(_reject_constant)
    memo = None


_scan_once = _json.make_scanner(_ScanContext())
_SPACE = " \t\n\r"


def decode(text):
    """Parses JSON from the host; falls back to an iterative parser when nesting exceeds the recursion limit."""
    start = len(text) - len(text.lstrip(_SPACE))
    try:
        value, end = _scan_once(text, start)
    except StopIteration:
        raise ValueError("malformed JSON at %d" % start) from None
    except RecursionError:
        return _decode_iterative(text)
    if text[end:].strip(_SPACE):
        raise ValueError("extra data at %d" % end)
    return value


def _decode_iterative(text):
    import re

    _NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")
    _WS = re.compile(r"[ \t\n\r]*")
    i = 0
    n = len(text)
    stack = []  # [container, pending_key]

    def ws(pos):
        return _WS.match(text, pos).end()

    while True:
        i = ws(i)
        if i >= n:
            raise ValueError("unexpected end of JSON")
        c = text[i]
        top = stack[-1] if stack else None
        if top is not None and type(top[0]) is dict and top[1] is None:
            # an object expects a key or its end
            if c == "}" and not top[0]:
                value = stack.pop()[0]
                i += 1
            elif c == '"':
                key, i = _scanstring(text, i + 1)
                i = ws(i)
                if i >= n or text[i] != ":":
                    raise ValueError("expected ':' at %d" % i)
                top[1] = key
                i += 1
                continue
            else:
                raise ValueError("expected a key at %d" % i)
        elif c == "[":
            stack.append([[], None])
            i = ws(i + 1)
            if i < n and text[i] == "]":
                value = stack.pop()[0]
                i += 1
            else:
                continue
        elif c == "{":
            stack.append([{}, None])
            continue_at = ws(i + 1)
            if continue_at < n and text[continue_at] == "}":
                value = stack.pop()[0]
                i = continue_at + 1
            else:
                i = i + 1
                continue
        elif c == '"':
            value, i = _scanstring(text, i + 1)
        elif text.startswith("true", i):
            value, i = True, i + 4
        elif text.startswith("false", i):
            value, i = False, i + 5
        elif text.startswith("null", i):
            value, i = None, i + 4
        else:
            match = _NUMBER.match(text, i)
            if match is None or match.end() == i:
                raise ValueError("unexpected character at %d" % i)
            token = match.group()
            value = float(token) if (match.group(1) or match.group(2)) else _parse_int(token)
            i = match.end()
        # place value into its parent, then consume separators / closers
        while True:
            if not stack:
                if ws(i) != n:
                    raise ValueError("extra data at %d" % i)
                return value
            top = stack[-1]
            if type(top[0]) is list:
                top[0].append(value)
            else:
                top[0][top[1]] = value
                top[1] = None
            i = ws(i)
            if i >= n:
                raise ValueError("unexpected end of JSON")
            closer = "]" if type(top[0]) is list else "}"
            if text[i] == ",":
                i += 1
                break
            if text[i] == closer:
                i += 1
                value = stack.pop()[0]
                continue
            raise ValueError("expected ',' or '%s' at %d" % (closer, i))
