"""Renders an uncaught exception for the model: the traceback filtered to the program's own frames."""

import traceback

PROGRAM_FILE = "<program>"
MAIN_NAME = "__ptc_main__"
MAX_CHAIN = 100
MAX_FRAMES = 50
MAX_CHARS = 16 * 1024
TRUNCATED = "\u2026 [truncated]"

_TracebackException = traceback.TracebackException
_StackSummary = traceback.StackSummary
_type = type
_str = str


def _own_frames(summary):
    kept = []
    for frame in summary:
        if frame.filename == PROGRAM_FILE:
            if frame.name == MAIN_NAME:
                frame.name = "<module>"
            kept.append(frame)
    return _StackSummary.from_list(kept[-MAX_FRAMES:])


def _filter_chain(top):
    """Filters every exception in the cause/context/group chain iteratively; caps the chain length."""
    seen = 0
    pending = [top]
    while pending:
        te = pending.pop()
        seen += 1
        te.stack = _own_frames(te.stack)
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


def describe(exc):
    """Returns (message, location_or_None); never raises."""
    try:
        te = _TracebackException(_type(exc), exc, exc.__traceback__, limit=None, compact=True)
        _filter_chain(te)
        location = _location(exc, te)
        text = "".join(te.format()).rstrip("\n")
    except BaseException:
        try:
            name = _type(exc).__name__
        except BaseException:
            name = "BaseException"
        return "%s: <diagnostic rendering failed>" % name, None
    if len(text) > MAX_CHARS:
        text = text[: MAX_CHARS - len(TRUNCATED)] + TRUNCATED
    return text, location
