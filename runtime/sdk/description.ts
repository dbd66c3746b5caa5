import type { Language } from '../protocol/run-result.js';
import type { SdkNamespace } from './sdk-source.js';
import { isAttributeSafe } from './python-names.js';
import { tsKey } from './schema-ts.js';

const list = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] as string}`;

// An example call for the usage bullets, taken from the first declared function so the text matches the module.
function exampleCall(
  namespaces: readonly SdkNamespace[],
  language: Language,
): { call: string; exotic: string | undefined } {
  const safe = (name: string): boolean =>
    language === 'python' ? isAttributeSafe(name, new Set()) : tsKey(name) === name;
  for (const ns of namespaces) {
    const fn = ns.functions.find((f) => safe(f.name));
    if (fn !== undefined)
      return {
        call: `await ${ns.global}.${fn.name}(args)`,
        exotic: `${ns.global}[${JSON.stringify('my-tool')}](args)`,
      };
  }
  const ns = namespaces.find((n) => n.functions.length > 0);
  const fn = ns?.functions[0];
  if (ns === undefined || fn === undefined) return { call: 'await tools.name(args)', exotic: undefined };
  return { call: `await ${ns.global}[${JSON.stringify(fn.name)}](args)`, exotic: undefined };
}

function failureBullet(namespaces: readonly SdkNamespace[], language: Language): string {
  if (namespaces.length === 0) return '';
  const parts = namespaces.map((ns) => {
    if (ns.errorClass === undefined)
      return `a failed \`${ns.global}\` call ${language === 'python' ? 'raises `RuntimeError`' : 'rejects with a plain `Error`'}`;
    const { name, memberNameProperty } = ns.errorClass;
    const details =
      ns.mcp && !['code', 'data'].includes(memberNameProperty)
        ? ' (and, when the server sent them, `code` and `data`: the JSON-RPC error code and data)'
        : '';
    return `a failed \`${ns.global}\` call ${language === 'python' ? 'raises' : 'rejects with'} \`${name}\`, whose \`${memberNameProperty}\` names the tool and whose message is the tool's error text${details}`;
  });
  const catcher = language === 'python' ? '`try`/`except`' : '`try`/`catch`';
  return `- Failures: ${parts.join('; ')}. Catch them with ${catcher} when the program can recover.\n`;
}

// The `run_code` tool description: how to write a program, then (by the caller) the declarations block.
export function renderDescription(namespaces: readonly SdkNamespace[], language: Language): string {
  const globals = namespaces.map((ns) => `\`${ns.global}\``);
  const { call, exotic } = exampleCall(namespaces, language);
  const ts = language === 'typescript';
  const lines: string[] = [];
  lines.push(
    ts
      ? 'Run a TypeScript program that calls the tools declared below. `run_code` takes two required arguments: `code` (the program) and `description` (a 5–10 word, active-voice label of what the program does, shown to the user).'
      : 'Run a Python program that calls the tools declared below. `run_code` takes two required arguments: `code` (the program) and `description` (a 5–10 word, active-voice label of what the program does, shown to the user).',
    '',
  );
  lines.push(
    ts
      ? '- `code` is the body of an async function: use top-level `await`, and `return` a value to hand it back. Use erasable TypeScript only (no `enum`, `namespace` or constructor parameter properties).'
      : '- `code` is the body of an async function: use top-level `await`, and `return` a value to hand it back.',
  );
  lines.push(
    globals.length === 0
      ? '- No tools are declared: the program can only compute, print and return.'
      : `- The program sees ${globals.length === 1 ? 'the global' : 'the globals'} ${list(globals)}. Call a tool as \`${call}\`${exotic === undefined ? '' : `; a name that is not a plain identifier is reached by subscript, e.g. \`${exotic}\``}.`,
  );
  lines.push(
    '- Arguments and results are lossless JSON: finite numbers, strings, booleans, null, arrays and plain objects (no `undefined`, `NaN`, dates or class instances). Each tool resolves to exactly the result type declared below; a result declared as a string or as text items is not parsed for you.',
  );
  if (namespaces.some((ns) => ns.functions.some((fn) => fn.returns === 'mcp-content'))) {
    lines.push(
      ts
        ? '- A tool declared `Promise<McpContent[]>` resolves to its content items in order: read `item.text` of the `text` items (`JSON.parse` it when it holds JSON); images and audio come as base64 `data` with a `mimeType`.'
        : '- A tool declared to return `List[McpContent]` resolves to its content items in order: read `item["text"]` of the `text` items (`json.loads` it when it holds JSON); images and audio come as base64 `data` with a `mimeType`.',
    );
  }
  lines.push(
    ts
      ? '- Only what the program prints (`console.log`) and what it returns reaches you. Extract what you need inside the program instead of returning whole tool results.'
      : '- Only what the program prints (`print`) and what it returns reaches you. Extract what you need inside the program instead of returning whole tool results.',
  );
  const failure = failureBullet(namespaces, language);
  if (failure.length > 0) lines.push(failure.trimEnd());
  lines.push(
    ts
      ? '- Independent calls can run concurrently: `const [a, b] = await Promise.all([first, second]);`.'
      : '- Independent calls can run concurrently: `a, b = await asyncio.gather(first, second)` (import asyncio).',
  );
  lines.push(
    '- Every run starts in a fresh, sandboxed process: no state survives between runs, and the network and file system are reachable only through the tools.',
  );
  lines.push(
    '',
    ts
      ? 'The tools, declared in TypeScript:'
      : 'The tools, declared as Python type stubs (only the globals and error classes exist at run time; build plain dicts):',
  );
  return `${lines.join('\n')}\n`;
}
