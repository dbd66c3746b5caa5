"""The program's text as one code object: its statements become the body of `async def __ptc_main__()`, so top-level
`await` and `return` work and every line number is the cell's own. Shared by the CPython runner and the pyodide
engine's guest runner (ptc_pyodide.py)."""

from ptc_errors import MAIN_NAME, PROGRAM_FILE


def compile_program(source, _ast, _compile=compile):
    """Returns (code, tree); raises what compile raises (a SyntaxError located in the program)."""
    # the C parser directly (the ast module's import costs more than the interpreter's start)
    tree = _compile(source, PROGRAM_FILE, "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
    body = tree.body or [_ast.Pass(lineno=1, col_offset=0, end_lineno=1, end_col_offset=0)]
    arguments = _ast.arguments(
        posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
    )
    function = _ast.AsyncFunctionDef(
        name=MAIN_NAME,
        args=arguments,
        body=body,
        decorator_list=[],
        returns=None,
        type_comment=None,
        lineno=1,
        col_offset=0,
        end_lineno=1,
        end_col_offset=0,
    )
    if "type_params" in _ast.AsyncFunctionDef._fields:
        function.type_params = []
    module = _ast.Module(body=[function], type_ignores=[])
    return _compile(module, PROGRAM_FILE, "exec", dont_inherit=True), tree
