import { parse, type Node } from 'acorn';
import { PUBLIC_SPECIFIER } from '../../bindings/public-specifier.js';
import { errorMessage } from '../../output/error-message.js';

// What a bindings module may import in a browser: only `ptc-playground/bindings` (served from memory). The desktop
// bundles a module's relative imports and loads its npm packages and Node built-ins; a browser worker has no files
// to bundle and no Node, so the module must be one file. The text is parsed here (acorn: the module's syntax errors
// with their line and column) before any of it runs, and every import it names is checked.

export type ModuleScan =
  // the module's code, `ptc-playground/bindings` pointed at `publicUrl`
  { ok: true; code: string } | { ok: false; message: string };

// Node's built-ins a module may name without `node:` (the common ones: a bare name is refused either way, this only
// picks the words of the message).
const NODE_BUILTINS = new Set(
  'assert buffer child_process cluster crypto dgram dns events fs http http2 https inspector module net os path perf_hooks process querystring readline stream string_decoder timers tls tty url util v8 vm worker_threads zlib'.split(
    ' ',
  ),
);

function kindOf(specifier: string): string {
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..')
    return 'a relative import (another file of the workspace)';
  if (specifier.startsWith('/')) return 'a file';
  if (specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0] ?? ''))
    return 'a Node built-in module';
  if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) return 'a URL';
  return 'an npm package';
}

interface Found {
  specifier: string;
  // the string literal's range in the text
  start: number;
  end: number;
  line: number;
  how: 'import' | 'import()' | 'require()';
}

interface Literal extends Node {
  type: 'Literal';
  value: unknown;
}

const isStringLiteral = (node: unknown): node is Literal =>
  (node as Node | null)?.type === 'Literal' && typeof (node as Literal).value === 'string';

// Every import, export-from, dynamic import() and require() of a string literal, in text order (an iterative walk:
// a deeply nested module cannot overflow the stack).
function importsOf(root: Node): Found[] {
  const found: Found[] = [];
  const stack: unknown[] = [root];
  const add = (source: Literal, how: Found['how']): void => {
    found.push({
      specifier: source.value as string,
      start: source.start,
      end: source.end,
      line: source.loc?.start.line ?? 0,
      how,
    });
  };
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    const n = node as Node & Record<string, unknown>;
    if (
      (n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') &&
      isStringLiteral(n.source)
    )
      add(n.source, 'import');
    else if (n.type === 'ImportExpression' && isStringLiteral(n.source)) add(n.source, 'import()');
    else if (
      n.type === 'CallExpression' &&
      (n.callee as Node & { name?: string }).type === 'Identifier' &&
      (n.callee as { name?: string }).name === 'require' &&
      Array.isArray(n.arguments) &&
      isStringLiteral(n.arguments[0])
    )
      add(n.arguments[0], 'require()');
    for (const [key, value] of Object.entries(n)) {
      if (key === 'loc' || value === null || typeof value !== 'object') continue;
      stack.push(value);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

// Parses the module, refuses any import a browser cannot give it (naming the module, the import and its line), and
// points `ptc-playground/bindings` at `publicUrl`.
export function scanModule(file: string, code: string, publicUrl: string): ModuleScan {
  let root: Node;
  try {
    root = parse(code, { ecmaVersion: 'latest', sourceType: 'module', locations: true, allowHashBang: true });
  } catch (error) {
    // acorn's message ends with "(line:column)"; a module nested past the parser's stack is said as such
    const message = errorMessage(error);
    return {
      ok: false,
      message: /stack/i.test(message)
        ? `bindings module ${file} is nested too deeply to parse: ${message}`
        : `bindings module ${file} has a syntax error: ${message}`,
    };
  }
  const found = importsOf(root);
  const refused = found.find((f) => f.specifier !== PUBLIC_SPECIFIER);
  if (refused !== undefined)
    return {
      ok: false,
      message:
        `bindings module ${file} ${refused.how === 'import' ? 'imports' : `calls ${refused.how} on`} ` +
        `${JSON.stringify(refused.specifier)} (line ${refused.line}), ${kindOf(refused.specifier)}: in the browser a ` +
        'bindings module runs as one file in a web worker, with no other files, npm packages or Node built-ins. ' +
        'Put what it needs into the module itself, or run the notebook in VS Code on the desktop.',
    };
  let out = '';
  let at = 0;
  for (const f of found) {
    out += code.slice(at, f.start) + JSON.stringify(publicUrl);
    at = f.end;
  }
  return { ok: true, code: out + code.slice(at) };
}
