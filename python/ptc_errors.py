"""Renders an uncaught exception for the model: the traceback filtered to the program's own frames."""

PROGRAM_FILE = "<program>"
MAIN_NAME = "__ptc_main__"
MAX_CHAIN = 100
MAX_FRAMES = 50
MAX_CHARS = 16 * 1024
TRUNCATED = "\u2026 [truncated]"

_type = type
_modules = {}


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


def _filter_chain(top, _StackSummary):
    """Filters every exception in the cause/context/group chain iteratively; caps the chain length."""
    seen = 0
    pending = [top]
    while pending:
        te = pending.pop()
        seen += 1
        te.stack = _own_frames(te.stack, _StackSummary)
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
            detail = str(exc)
        except BaseException:
            detail = "<exception str() failed>"
        name = _type(exc).__name__
        out.append("%s: %s" % (name, detail) if detail else name)
        return "\n".join(out if location is not None else out[-1:]), location
    except BaseException:
        try:
            name = _type(exc).__name__
        except BaseException:
            name = "BaseException"
        return "%s: <diagnostic rendering failed>" % name, None
