import { MCP_CONTENT_DOC, MCP_CONTENT_SCHEMA } from './mcp-content.js';
import { errorClasses, type SdkFunction, type SdkNamespace } from './sdk-source.js';
import { argsOmittable, newContext } from './schema-walk.js';
import { TS_JSON, tsDoc, tsKey, tsType } from './schema-ts.js';

const JSON_ALIAS = `/** Every argument and result is lossless JSON: finite numbers, strings, booleans, null, arrays, plain objects. */
type ${TS_JSON} = null | boolean | number | string | ${TS_JSON}[] | { [key: string]: ${TS_JSON} };`;

// The ambient declarations a TypeScript program runs against: one error class per declared name, one constant per
// global.
export function renderTypeScriptDeclarations(namespaces: readonly SdkNamespace[]): string {
  const blocks: string[] = [JSON_ALIAS];
  if (namespaces.some((ns) => ns.functions.some((fn) => fn.returns === 'mcp-content'))) {
    blocks.push(
      [
        ...tsDoc(MCP_CONTENT_DOC, ''),
        `type McpContent = ${tsType(MCP_CONTENT_SCHEMA, newContext(MCP_CONTENT_SCHEMA), '')};`,
      ].join('\n'),
    );
  }
  for (const cls of errorClasses(namespaces)) {
    const member = cls.names.length === 0 ? 'never' : cls.names.map((n) => JSON.stringify(n)).join(' | ');
    const details =
      ['code', 'data'].includes(cls.memberNameProperty) || !cls.mcp
        ? []
        : [
            `  /** The JSON-RPC error code when the MCP server refused the request (e.g. -32602, invalid params). */`,
            `  readonly code?: number;`,
            `  /** The JSON-RPC error's data, or a failed tool's structuredContent, when the server sent any. */`,
            `  readonly data?: ${TS_JSON};`,
          ];
    blocks.push(
      [
        `/** Rejection of a failed \`${cls.global}\` call; \`message\` carries the tool's error text. */`,
        `declare class ${cls.name} extends Error {`,
        `  readonly name: ${JSON.stringify(cls.name)};`,
        `  /** The function whose call failed. */`,
        `  readonly ${tsKey(cls.memberNameProperty)}: ${member};`,
        ...details,
        '}',
      ].join('\n'),
    );
  }
  for (const ns of namespaces) {
    const lines: string[] = [];
    lines.push(
      ns.errorClass === undefined
        ? `/** Tools of \`${ns.global}\`; a failed call rejects with a plain \`Error\`. */`
        : `/** Tools of \`${ns.global}\`; a failed call rejects with \`${ns.errorClass.name}\`. */`,
    );
    lines.push(`declare const ${ns.global}: {`);
    for (const fn of ns.functions) {
      const argsType = fn.input === undefined ? TS_JSON : tsType(fn.input, newContext(fn.input), '  ');
      const resultType = tsResult(fn);
      const optional = argsOmittable(fn.input) ? '?' : '';
      lines.push(...tsDoc(fn.description, '  '));
      lines.push(`  ${tsKey(fn.name)}(args${optional}: ${argsType}): Promise<${resultType}>;`);
    }
    for (const [name, reason] of ns.unavailable)
      lines.push(`  // not available: ${tsKey(name)} (${reason.replace(/\s+/g, ' ')})`);
    lines.push('};');
    blocks.push(lines.join('\n'));
  }
  return `${blocks.join('\n\n')}\n`;
}

// What a call resolves to: its output schema's type, MCP content items, text, or any JSON.
function tsResult(fn: SdkFunction): string {
  if (fn.output !== undefined) return tsType(fn.output, newContext(fn.output), '  ');
  if (fn.returns === 'mcp-content') return 'McpContent[]';
  if (fn.returns === 'text') return 'string';
  return TS_JSON;
}
