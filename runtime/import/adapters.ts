import { PORTABLE_RESERVED_WORDS, PYTHON_KEYWORDS } from '../contract/identifiers.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { BindingTarget } from './tool-mapping.js';
import { IMPORTS } from './format-codex.js';
import type { ExtractedProgram } from './transcript-model.js';

// The cell source for a program: the program text as the model wrote it, below a short, marked header when the
// platform it ran on called tools differently from this playground (bare functions, text() output).
export interface AdaptedSource {
  source: string;
  // lines the header adds above the model's first line
  headerLines: number;
  notes: string[];
}

export interface AdapterTool {
  tool: string;
  target: BindingTarget;
  // property names of the tool's input schema, in order: positional arguments fill them
  parameters: string[];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// a tool named like a Python keyword, print, or the tools global is not given a bare-function alias (it would break the
// program)
const PYTHON_TAKEN: ReadonlySet<string> = new Set([...PYTHON_KEYWORDS, 'print', 'tools']);

export function adaptProgram(
  program: ExtractedProgram,
  code: string,
  tools: readonly AdapterTool[],
  origin: string,
): AdaptedSource {
  if (program.adapter === 'anthropic-python') return anthropicPython(code, tools, origin, program.prelude ?? []);
  if (program.adapter === 'openai-javascript') return openAiJavaScript(code, tools, origin);
  if (program.adapter === 'codex-javascript') return codexJavaScript(code, tools, origin);
  if (program.language === 'python' && program.prelude !== undefined && program.prelude.length > 0) {
    const lines = [...containerPrelude(program.prelude), `# ── the program as the model wrote it (${origin}) ──`];
    return { source: `${lines.join('\n')}\n${code}`, headerLines: lines.length, notes: [] };
  }
  return { source: code, headerLines: 0, notes: [] };
}

// Claude's code execution exposes each tool as an async function called with positional or keyword arguments
// (`await query_database("<sql>")`); the binding takes one JSON object, so a small wrapper builds it.
function anthropicPython(
  code: string,
  tools: readonly AdapterTool[],
  origin: string,
  prelude: readonly string[],
): AdaptedSource {
  const notes: string[] = [];
  const lines = [
    "# ── ptc import: Claude's code execution calls each tool as a bare async function; these lines route them to the bindings ──",
    'def __ptc_tool(call, names):',
    '    def tool(*args, **kwargs):',
    "        # one dict whose keys are the schema's own (or a tool without a schema): it is the arguments object itself",
    '        if len(args) == 1 and not kwargs and isinstance(args[0], dict) and (not names or set(args[0]) <= set(names)):',
    '            return call(args[0])',
    '        payload = dict(zip(names, args))',
    '        payload.update(kwargs)',
    '        return call(payload)',
    '    return tool',
  ];
  for (const t of tools) {
    if (!IDENTIFIER.test(t.tool) || PYTHON_TAKEN.has(t.tool)) continue;
    lines.push(`${t.tool} = __ptc_tool(${t.target.global}[${pyString(t.target.name)}], ${pyList(t.parameters)})`);
  }
  lines.push(...containerPrelude(prelude));
  lines.push(`# ── the program as Claude wrote it (${origin}) ──`);
  const { text: body, changed } = awaitInLoop(code);
  if (changed)
    notes.push('asyncio.run(…) became await …: the playground already runs the program inside an event loop');
  return { source: `${lines.join('\n')}\n${body}`, headerLines: lines.length, notes };
}

// The earlier programs of a container, run first so their variables exist; their printed output belongs to them.
function containerPrelude(prelude: readonly string[]): string[] {
  if (prelude.length === 0) return [];
  const lines = [
    `# ── ptc import: ${prelude.length} earlier program(s) of the same container, whose variables this one uses ──`,
    'import sys as __ptc_sys, io as __ptc_io',
    '__ptc_shown = __ptc_sys.stdout',
    '__ptc_sys.stdout = __ptc_io.StringIO()',
  ];
  for (const earlier of prelude) lines.push(...awaitInLoop(earlier.replace(/^\n+/, '')).text.split('\n'));
  lines.push('__ptc_sys.stdout = __ptc_shown');
  return lines;
}

// the container runs the script itself; here the program already runs inside an event loop
function awaitInLoop(code: string): { text: string; changed: boolean } {
  const text = code.replace(
    /^([ \t]*)asyncio\.run\((.*)\)[ \t]*(#.*)?$/gm,
    (_, indent: string, inner: string) => `${indent}await ${inner}`,
  );
  return { text, changed: text !== code };
}

// OpenAI's programmatic tool calling runs JavaScript whose output goes through text(...) and image(...); the tools are
// reachable as `tools.<name>` and as bare functions here, whichever the program uses.
function openAiJavaScript(
  code: string,
  tools: readonly AdapterTool[],
  origin: string,
  extra: readonly string[] = [],
): AdaptedSource {
  // computed keys: a quoted `__proto__` key in an object literal would set the prototype instead
  const entries = tools.map(
    (t) => `[${JSON.stringify(t.tool)}]: (args) => ${t.target.global}[${JSON.stringify(t.target.name)}](args ?? {})`,
  );
  const aliases = tools.filter(
    (t) =>
      IDENTIFIER.test(t.tool) &&
      !PORTABLE_RESERVED_WORDS.has(t.tool) &&
      t.tool !== 'tools' &&
      t.tool !== 'text' &&
      t.tool !== 'image',
  );
  const lines = [
    '// ── ptc import: the program ran with text()/image() for output and the tools as functions; these lines provide them ──',
    `const __ptc_tools = { ${entries.join(', ')} };`,
    "const text = (value) => console.log(typeof value === 'string' ? value : JSON.stringify(value));",
    "const image = () => console.log('[image output is not reproduced by ptc import]');",
    ...extra,
    `{ const tools = __ptc_tools;${aliases.map((t) => ` const ${t.tool} = __ptc_tools[${JSON.stringify(t.tool)}];`).join('')}`,
    '{',
    `// ── the program as the model wrote it (${origin}) ──`,
  ];
  return { source: `${lines.join('\n')}\n${code}\n}\n}`, headerLines: lines.length, notes: [] };
}

// Codex code mode: the script imports its tools from "tools.js" and its output helpers from "@openai/code_mode"; an
// import cannot stand inside the block the program runs in, so each becomes the same names taken from the bindings (the
// line count is kept, so the model's line numbers still hold).
function codexJavaScript(code: string, tools: readonly AdapterTool[], origin: string): AdaptedSource {
  const rewritten = code
    .replace(IMPORTS, (_, list: string) => {
      const names = list
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '' && p !== 'tools' && !p.startsWith('tools '));
      return names.length === 0
        ? ''
        : `const { ${names.map((n) => n.replace(/\s+as\s+/, ': ')).join(', ')} } = __ptc_tools;`;
    })
    .replace(/^[ \t]*import\s*\{[^}]*\}\s*from\s*["']@?openai\/code_mode["'];?[ \t]*$/gm, '');
  const extra = [
    'const output_text = text;',
    'const output_image = image;',
    "const add_content = (value) => { for (const item of [value].flat()) console.log(typeof item === 'string' ? item : typeof item?.text === 'string' ? item.text : JSON.stringify(item)); };",
    'const __ptc_store = new Map();',
    'const store = (key, value) => { __ptc_store.set(key, structuredClone(value)); };',
    'const load = (key) => structuredClone(__ptc_store.get(key));',
    'const set_max_output_tokens_per_exec_call = () => {};',
    'const ALL_TOOLS = Object.keys(__ptc_tools).map((name) => ({ module: "tools.js", name, description: "" }));',
  ];
  return openAiJavaScript(rewritten, tools, origin, extra);
}

function pyString(text: string): string {
  return JSON.stringify(text);
}

function pyList(items: readonly string[]): string {
  return `[${items.map(pyString).join(', ')}]`;
}

// The parameter names a tool's input schema declares, in order.
export function schemaParameters(schema: Record<string, JsonValue> | undefined): string[] {
  const properties = schema?.properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return [];
  return Object.keys(properties);
}
