// The probes' one rule for what counts as refused, in Python (the OS sandbox's probe and the pyodide engine's): an
// attempt is refused only when it raised. Needs nothing from Node, so the browser's probe can use it.
export const PYTHON_ATTEMPT_HELPER = `refused = {}
def attempt(name, action):
    try:
        action()
        refused[name] = False
    except BaseException:
        refused[name] = True`;
