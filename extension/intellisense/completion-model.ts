import { byCodeUnit, renderSdk, type Language, type SdkSource } from '../../runtime/index.js';

// one namespace of the SDK's source (derived: the runtime's public surface keeps one name for the whole shape)
type SdkNamespaceSource = SdkSource['namespaces'][string];

export interface FunctionInfo {
  name: string;
  description: string | undefined;
  // the SDK declaration shown in completions and hovers, in the cell's language
  declaration: Record<Language, string>;
  // the input JSON Schema, when the binding declares one (argument literals are checked against it)
  input?: Record<string, unknown>;
}

export interface GlobalInfo {
  global: string;
  errorClass: string | undefined;
  functions: FunctionInfo[];
}

// The declaration of one function as the generated SDK spells it (doc comment, signature, the types it names).
export function sdkDeclaration(global: string, ns: SdkNamespaceSource, name: string, language: Language): string {
  const fn = ns.functions[name];
  const source = {
    namespaces: {
      [global]: {
        ...(ns.errorClass === undefined ? {} : { errorClass: ns.errorClass }),
        functions: fn === undefined ? {} : { [name]: fn },
      },
    },
  };
  const declarations = renderSdk(source, language).declarations;
  if (language === 'python') {
    // drop the typing import and the JsonValue alias: every stub starts with them
    return declarations.split('\n\n\n').slice(2).join('\n\n').trim();
  }
  const lines = declarations.split('\n');
  const open = lines.findIndex((l) => l.startsWith(`declare const ${global}: {`));
  const close = lines.indexOf('};', open);
  if (open < 0 || close < 0) return declarations.trim();
  return lines
    .slice(open + 1, close)
    .map((l) => l.replace(/^ {2}/, ''))
    .join('\n');
}

// What completions and hovers offer for each namespace global of a bindings module, in SDK order.
export function completionModel(module: SdkSource): GlobalInfo[] {
  return Object.keys(module.namespaces)
    .sort(byCodeUnit)
    .map((global) => {
      const ns = module.namespaces[global] as SdkNamespaceSource;
      return {
        global,
        errorClass: ns.errorClass?.name,
        functions: Object.keys(ns.functions)
          .sort(byCodeUnit)
          .map((name) => ({
            name,
            description: ns.functions[name]?.description,
            ...(ns.functions[name]?.input === undefined ? {} : { input: ns.functions[name]?.input }),
            declaration: {
              typescript: sdkDeclaration(global, ns, name, 'typescript'),
              python: sdkDeclaration(global, ns, name, 'python'),
            },
          })),
      };
    });
}

// The signature of a declaration on one line (`name(args: { … }): Promise<…>;` or `async def name(…) -> …:`).
export function signatureLine(declaration: string): string {
  const lines = declaration.split('\n').map((l) => l.trim());
  const python = lines.find((l) => l.startsWith('async def ') || l.startsWith('def __getitem__'));
  if (python !== undefined) return python;
  // TypeScript: everything after the doc comment, multi-line object types folded
  const closing = lines.findIndex((l) => l.endsWith('*/'));
  return (
    lines
      .slice(closing + 1)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim() || declaration
  );
}

export type CompletionContext =
  { kind: 'member'; global: string; prefix: string; bracket: boolean } | { kind: 'global'; prefix: string };

// Reads what is being completed from the text before the cursor on its line.
export function completionContext(linePrefix: string): CompletionContext | undefined {
  const bracket = /([A-Za-z_$][\w$]*)\s*\[\s*["']([^"'\\]*)$/.exec(linePrefix);
  if (bracket !== null)
    return { kind: 'member', global: bracket[1] as string, prefix: bracket[2] as string, bracket: true };
  const member = /([A-Za-z_$][\w$]*)\s*\.\s*([\w$]*)$/.exec(linePrefix);
  if (member !== null) {
    // `a.b.c` completes members of `b`, which is not a namespace global
    const before = linePrefix.slice(0, member.index).trimEnd();
    if (before.endsWith('.')) return undefined;
    return { kind: 'member', global: member[1] as string, prefix: member[2] as string, bracket: false };
  }
  const word = /(?:^|[^\w$.])([A-Za-z_$][\w$]*)$/.exec(linePrefix);
  if (word !== null) return { kind: 'global', prefix: word[1] as string };
  return undefined;
}

// The `global.name` (or `global["name"]`) under a column of a line, for hovers.
export function memberAt(
  line: string,
  column: number,
): { global: string; name: string; start: number; end: number } | undefined {
  const pattern = /([A-Za-z_$][\w$]*)\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(["'])([^"'\\]*)\3\s*\])/g;
  for (const match of line.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    if (column >= start && column <= end)
      return { global: match[1] as string, name: (match[2] ?? match[4]) as string, start, end };
  }
  return undefined;
}
