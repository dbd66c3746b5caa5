"""Renders an uncaught exception for the model: the traceback filtered to the program's own frames."""

PROGRAM_FILE = "<program>"
MAIN_NAME = "__ptc_main__"
MAX_CHAIN = 100
MAX_FRAMES = 50
MAX_CHARS = 16 * 1024
# program text embedded in a diagnostic (a key, a class name, a path); mirrors runtime/output/diagnostic.ts
MAX_EMBEDDED = 1024
# one key inside a path (the path as a whole is capped at MAX_EMBEDDED)
MAX_PATH_KEY = 256
TRUNCATED = "\u2026 [truncated]"

_type = type
_modules = {}


def cap_text(text, limit=MAX_EMBEDDED):
    """At most `limit` characters: the start of the text and a marker."""
    if len(text) <= limit:
        return text
    return text[: limit - len(TRUNCATED)] + TRUNCATED


def cap_middle(text, limit=MAX_EMBEDDED):
    """At most `limit` characters: the start and the end around an ellipsis (a path's end names the value)."""
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return text[:half] + "\u2026" + text[len(text) - half :]


def _traceback():
    # imported on first use: a run that never fails never pays for traceback (and linecache, tokenize, re)
    if not _modules:
        import linecache
        import traceback

        _modules["linecache"] = linecache
        _modules["traceback"] = traceback
    return _modules["traceback"], _modules["linecache"]


def _own_frames(summary, _StackSummary):
    kept = []
    for frame in summary:
        if frame.filename == PROGRAM_FILE:
            if frame.name == MAIN_NAME:
                frame.name = "<module>"
            kept.append(frame)
    return _StackSummary.from_list(kept[-MAX_FRAMES:])


def _cap_names(te):
    """A class name and message are program text: cut before they are formatted (a 70 MiB name would be copied)."""
    text = getattr(te, "_str", None)
    if type(text) is str and len(text) > MAX_CHARS:
        te._str = cap_text(text, MAX_CHARS)
    exc_type = te.exc_type
    if exc_type is not None and (
        len(exc_type.__qualname__) > MAX_EMBEDDED or len(str(exc_type.__module__)) > MAX_EMBEDDED
    ):
        stand_in = _type(cap_text(exc_type.__name__), (), {})
        stand_in.__qualname__ = cap_text(exc_type.__qualname__)
        stand_in.__module__ = cap_text(str(exc_type.__module__))
        te.exc_type = stand_in


def _filter_chain(top, _StackSummary):
    """Filters every exception in the cause/context/group chain iteratively; caps the chain length."""
    seen = 0
    pending = [top]
    while pending:
        te = pending.pop()
        seen += 1
        te.stack = _own_frames(te.stack, _StackSummary)
        _cap_names(te)
        if seen >= MAX_CHAIN:
            te.__cause__ = None
            te.__context__ = None
            te.exceptions = None
            continue
        for linked in (te.__cause__, te.__context__):
            if linked is not None:
                pending.append(linked)
        for member in getattr(te, "exceptions", None) or ():
            pending.append(member)


def _location(exc, te):
    if isinstance(exc, SyntaxError) and getattr(exc, "filename", None) == PROGRAM_FILE:
        line = exc.lineno
        if type(line) is int and line >= 1:
            column = exc.offset
            if type(column) is int and column >= 1:
                return {"line": line, "column": column}
            return {"line": line}
        return None
    for frame in reversed(te.stack):
        if type(frame.lineno) is int and frame.lineno >= 1:
            return {"line": frame.lineno}
    return None


def describe(exc, source, drop_locals=False):
    """Returns (message, location_or_None); never raises."""
    try:
        traceback, linecache = _traceback()
        if drop_locals:
            # out of memory: the frames' locals go first, so rendering has room
            traceback.clear_frames(exc.__traceback__)
        # tracebacks show the program's own source lines
        linecache.cache[PROGRAM_FILE] = (len(source), None, source.splitlines(True), PROGRAM_FILE)
        te = traceback.TracebackException(_type(exc), exc, exc.__traceback__, limit=None, compact=True)
        _filter_chain(te, traceback.StackSummary)
        location = _location(exc, te)
        text = "".join(te.format()).rstrip("\n")
    except BaseException:
        text, location = _plain(exc, source)
    if len(text) > MAX_CHARS:
        text = text[: MAX_CHARS - len(TRUNCATED)] + TRUNCATED
    return text, location


def _plain(exc, source):
    """A traceback rendered from the frames alone, for when the traceback module itself was broken."""
    try:
        lines = source.splitlines()
        out = ["Traceback (most recent call last):"]
        location = None
        tb = exc.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == PROGRAM_FILE:
                line = tb.tb_lineno
                name = "<module>" if code.co_name == MAIN_NAME else code.co_name
                out.append('  File "%s", line %d, in %s' % (PROGRAM_FILE, line, name))
                if 1 <= line <= len(lines):
                    out.append("    " + lines[line - 1].strip())
                location = {"line": line}
            tb = tb.tb_next
        try:
            detail = cap_text(str(exc), MAX_CHARS)
        except BaseException:
            detail = "<exception str() failed>"
        name = cap_text(_type(exc).__name__)
        out.append("%s: %s" % (name, detail) if detail else name)
        return "\n".join(out if location is not None else out[-1:]), location
    except BaseException:
        try:
            name = cap_text(_type(exc).__name__)
        except BaseException:
            name = "BaseException"
        return "%s: <diagnostic rendering failed>" % name, None
