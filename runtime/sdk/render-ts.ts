import { errorClasses, type SdkNamespace } from './sdk-source.js';
import { argsOmittable, newContext } from './schema-walk.js';
import { TS_JSON, tsDoc, tsKey, tsType } from './schema-ts.js';

const JSON_ALIAS = `/** Every argument and result is lossless JSON: finite numbers, strings, booleans, null, arrays, plain objects. */
type ${TS_JSON} = null | boolean | number | string | ${TS_JSON}[] | { [key: string]: ${TS_JSON} };`;

// The ambient declarations a TypeScript program runs against: one error class per declared name, one constant per global.
export function renderTypeScriptDeclarations(namespaces: readonly SdkNamespace[]): string {
  const blocks: string[] = [JSON_ALIAS];
  for (const cls of errorClasses(namespaces)) {
    const member = cls.names.length === 0 ? 'never' : cls.names.map((n) => JSON.stringify(n)).join(' | ');
    blocks.push(
      [
        `/** Rejection of a failed \`${cls.global}\` call; \`message\` carries the tool's error text. */`,
        `declare class ${cls.name} extends Error {`,
        `  readonly name: ${JSON.stringify(cls.name)};`,
        `  /** The function whose call failed. */`,
        `  readonly ${tsKey(cls.memberNameProperty)}: ${member};`,
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
      const resultType = fn.output === undefined ? TS_JSON : tsType(fn.output, newContext(fn.output), '  ');
      const optional = argsOmittable(fn.input) ? '?' : '';
      lines.push(...tsDoc(fn.description, '  '));
      lines.push(`  ${tsKey(fn.name)}(args${optional}: ${argsType}): Promise<${resultType}>;`);
    }
    lines.push('};');
    blocks.push(lines.join('\n'));
  }
  return `${blocks.join('\n\n')}\n`;
}
