import { isAttributeSafe, NameRegistry, pascal, pyString } from './python-names.js';
import { MCP_CONTENT_DOC, MCP_CONTENT_KINDS } from './mcp-content.js';
import { errorClasses, type SdkNamespace } from './sdk-source.js';
import { newPyWalk, PY_JSON, pyDocstring, PyStubContext, pyType } from './schema-py.js';
import { argsOmittable, docLines } from './schema-walk.js';

interface Method {
  name: string;
  attribute: boolean;
  args: string;
  result: string;
  optional: boolean;
  doc: string | undefined;
}

// The static stub a Python program runs against: typing import, JsonValue alias, error classes, TypedDicts, one
// Protocol per global.
export function renderPythonDeclarations(namespaces: readonly SdkNamespace[]): string {
  const names = new NameRegistry();
  const classes = errorClasses(namespaces);
  for (const ns of namespaces) names.reserve(ns.global);
  for (const cls of classes) names.reserve(cls.name);
  const stub = new PyStubContext(names);
  // the MCP content item union, declared once (its TypedDicts first) when a tool answers content items
  const usesContent = namespaces.some((ns) => ns.functions.some((fn) => fn.returns === 'mcp-content'));
  const contentAlias = usesContent ? names.claim('McpContent') : undefined;
  // one named TypedDict per kind of item (McpText, McpMedia…), then the union
  const contentType = usesContent
    ? `Union[${MCP_CONTENT_KINDS.map(([hint, schema]) => pyType(schema, newPyWalk(schema, stub), hint)).join(', ')}]`
    : undefined;
  const contentDefinitions = stub.definitions.length;
  const protocols = namespaces.map((ns) => ({ ns, className: names.claim(pascal(ns.global, 'Namespace')) }));

  const bodies = protocols.map(({ ns, className }) => {
    const methods: Method[] = ns.functions.map((fn) => {
      const prefix = `${className}${pascal(fn.name, 'Tool')}`;
      const args = fn.input === undefined ? PY_JSON : pyType(fn.input, newPyWalk(fn.input, stub), `${prefix}Args`);
      const result =
        fn.output !== undefined
          ? pyType(fn.output, newPyWalk(fn.output, stub), `${prefix}Result`)
          : fn.returns === 'mcp-content'
            ? `List[${contentAlias as string}]`
            : fn.returns === 'text'
              ? 'str'
              : PY_JSON;
      return { name: fn.name, attribute: false, args, result, optional: argsOmittable(fn.input), doc: fn.description };
    });
    return { ns, className, methods };
  });
  // decided after every TypedDict is named, so no method can shadow a name the annotations use
  for (const body of bodies) for (const m of body.methods) m.attribute = isAttributeSafe(m.name, names.taken);

  stub.imports.add('Dict').add('List').add('Union');
  if (namespaces.length > 0) stub.imports.add('Protocol');
  const subscripted = bodies.map((b) => b.methods.filter((m) => !m.attribute));
  if (subscripted.some((list) => list.length > 0)) stub.imports.add('Awaitable').add('Callable').add('Literal');
  if (subscripted.some((list) => list.length > 1)) stub.imports.add('overload');

  const blocks: string[] = [`from typing import ${[...stub.imports].sort().join(', ')}`];
  blocks.push(
    `# Every argument and result is lossless JSON (plain dicts and lists; TypedDicts below are static types only).\n${PY_JSON} = Union[None, bool, int, float, str, List["${PY_JSON}"], Dict[str, "${PY_JSON}"]]`,
  );
  if (contentType !== undefined) {
    blocks.push(...stub.definitions.slice(0, contentDefinitions));
    blocks.push(`# ${MCP_CONTENT_DOC}\n${contentAlias as string} = ${contentType}`);
  }
  for (const cls of classes) {
    const details =
      cls.mcp && !['code', 'data'].includes(cls.memberNameProperty)
        ? [
            '    code: Union[int, None]',
            ...pyDocstring(
              'The JSON-RPC error code when the MCP server refused the request (e.g. -32602, invalid params); absent otherwise.',
              '    ',
            ),
            `    data: ${PY_JSON}`,
            ...pyDocstring(
              "The JSON-RPC error's data, or a failed tool's structuredContent, when the server sent any; absent otherwise.",
              '    ',
            ),
          ]
        : [];
    blocks.push(
      [
        `class ${cls.name}(Exception):`,
        ...pyDocstring(`Raised by a failed \`${cls.global}\` call; str(error) is the tool's error text.`, '    '),
        isAttributeSafe(cls.memberNameProperty, new Set())
          ? `    ${cls.memberNameProperty}: str`
          : `    # getattr(error, ${pyString(cls.memberNameProperty)}) names the function that failed`,
        ...(isAttributeSafe(cls.memberNameProperty, new Set())
          ? pyDocstring('The function whose call failed.', '    ')
          : []),
        ...details,
      ].join('\n'),
    );
  }
  blocks.push(...stub.definitions.slice(contentDefinitions));
  for (const { ns, className, methods } of bodies) {
    const failure = ns.errorClass === undefined ? 'RuntimeError' : ns.errorClass.name;
    const lines = [
      `class ${className}(Protocol):`,
      ...pyDocstring(`Tools of \`${ns.global}\`; a failed call raises ${failure}.`, '    '),
    ];
    const exotic = methods.filter((m) => !m.attribute);
    for (const [name, reason] of ns.unavailable)
      lines.push(`    # not available: ${pyString(name)} (${reason.replace(/\s+/g, ' ')})`);
    for (const m of methods.filter((x) => x.attribute)) {
      lines.push('');
      lines.push(`    async def ${m.name}(self, args: ${m.args}${m.optional ? ' = ...' : ''}) -> ${m.result}:`);
      // `...` after the docstring keeps the body a stub for type checkers
      lines.push(...(m.doc === undefined ? [] : pyDocstring(m.doc, '        ')), '        ...');
    }
    for (const m of exotic) {
      lines.push('');
      // names that are not plain attributes are reached by subscript: `tools["my-tool"](args)`
      lines.push(
        `    # ${ns.global}[${pyString(m.name)}](args${m.optional ? '=…' : ''})${m.doc === undefined ? '' : ':'}`,
      );
      if (m.doc !== undefined) lines.push(...docLines(m.doc).map((l) => `    #   ${l}`.replace(/\s+$/, '')));
      if (exotic.length > 1) lines.push('    @overload');
      lines.push(
        `    def __getitem__(self, name: Literal[${pyString(m.name)}]) -> Callable[[${m.args}], Awaitable[${m.result}]]: ...`,
      );
    }
    blocks.push(lines.join('\n'));
  }
  if (namespaces.length > 0) blocks.push(protocols.map(({ ns, className }) => `${ns.global}: ${className}`).join('\n'));
  return `${blocks.join('\n\n\n')}\n`;
}
