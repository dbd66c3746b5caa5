// Portable-identifier rules (reference §1.3): one binding list must be valid in both languages.
const ECMASCRIPT_WORDS = [
  'await',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
  'let',
  'static',
  'implements',
  'interface',
  'package',
  'private',
  'protected',
  'public',
  'eval',
  'arguments',
  'undefined',
  'NaN',
  'Infinity',
  'async',
  'of',
  'get',
  'set',
];
// Python's hard keywords: never a name in Python code.
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);
// and its soft keywords, which a binding name should not be either
const PYTHON_WORDS = [...PYTHON_KEYWORDS, 'match', 'case', 'type', '_'];
export const PORTABLE_RESERVED_WORDS: ReadonlySet<string> = new Set([...ECMASCRIPT_WORDS, ...PYTHON_WORDS]);

// Names the runtimes themselves own inside the program's scope.
export const RESERVED_BINDING_GLOBALS: ReadonlySet<string> = new Set([
  'console',
  'process',
  'globalThis',
  'require',
  'module',
  'exports',
  'print',
  '__ptc_main__',
  '__ptc_program__',
  '__builtins__',
  '__name__',
  '__debug__',
  '__file__',
  'asyncio',
  'Promise',
  'Error',
  'JSON',
  'Object',
]);

export const RESERVED_ERROR_MEMBERS: ReadonlySet<string> = new Set([
  'name',
  'message',
  'stack',
  'cause',
  'args',
  'with_traceback',
  'add_note',
  'constructor',
  'toString',
]);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DUNDER = /^__.+__$/;

export function isDunder(name: string): boolean {
  return DUNDER.test(name);
}

// Returns why `name` cannot be a program-visible identifier, or undefined when it can.
export function identifierProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return `must be a string, got ${typeof name}`;
  if (!IDENTIFIER.test(name)) return `"${name}" is not a portable identifier ([A-Za-z_][A-Za-z0-9_]*)`;
  if (PORTABLE_RESERVED_WORDS.has(name)) return `"${name}" is a JavaScript or Python reserved word`;
  if (RESERVED_BINDING_GLOBALS.has(name)) return `"${name}" is owned by the runtime`;
  return undefined;
}

// Returns why `name` cannot be the error-class member that carries the failing function's name.
export function memberPropertyProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return `must be a string, got ${typeof name}`;
  if (name.length === 0) return 'must not be empty';
  if (RESERVED_ERROR_MEMBERS.has(name)) return `"${name}" collides with a built-in error member`;
  if (isDunder(name)) return `"${name}" is a dunder name`;
  return undefined;
}
