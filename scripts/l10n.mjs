// Regenerates l10n/bundle.l10n.json from every translation call in extension/ and webview/ (`npm run l10n`);
// `--check` fails instead of writing when the committed bundle is stale or a call passes a non-literal message.
// Not @vscode/l10n-dev: its export only sees `l10n.t(...)` member calls and silently skips non-literal messages, so
// the strings pure modules translate through an injected `t` (extension/l10n.ts `Translate`) would miss the bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// A translation call: `vscode.l10n.t(...)`, `l10n.t(...)` (@vscode/l10n in webviews) or `t(...)` (an injected
// Translate).
function isTranslateCall(node) {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === 't';
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 't') return false;
  const owner = callee.expression;
  if (ts.isIdentifier(owner)) return owner.text === 'l10n';
  return (
    ts.isPropertyAccessExpression(owner) &&
    owner.name.text === 'l10n' &&
    ts.isIdentifier(owner.expression) &&
    owner.expression.text === 'vscode'
  );
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

// Every literal message of every translation call under the given folders, and every call whose message is not a
// literal.
export function extractMessages({ root = repo, folders = ['extension', 'webview'] } = {}) {
  const messages = new Set();
  const problems = [];
  for (const folder of folders) {
    for (const file of sourceFiles(path.join(root, folder))) {
      const text = fs.readFileSync(file, 'utf8');
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const visit = (node) => {
        if (ts.isCallExpression(node) && isTranslateCall(node)) {
          const first = node.arguments[0];
          if (first !== undefined && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
            messages.add(first.text);
          } else {
            const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
            problems.push(
              `${path.relative(root, file)}:${line + 1}: ${node.expression.getText(source)}() needs a literal string as its first argument, not ${first === undefined ? 'nothing' : first.getText(source).replace(/\s+/g, ' ').slice(0, 80)}`,
            );
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return { messages: [...messages].sort(), problems };
}

// The bundle's text: English to English, sorted, so a translator copies it and a diff shows what changed.
export function bundleText(messages) {
  return `${JSON.stringify(Object.fromEntries(messages.map((m) => [m, m])), null, 2)}\n`;
}

function main(argv) {
  const check = argv.includes('--check');
  const rootFlag = argv.indexOf('--root');
  const root = rootFlag === -1 ? repo : path.resolve(argv[rootFlag + 1] ?? '.');
  const bundlePath = path.join(root, 'l10n', 'bundle.l10n.json');
  const { messages, problems } = extractMessages({ root });
  if (problems.length > 0) {
    process.stderr.write(
      `l10n: ${problems.length} translation call(s) with a non-literal message:\n${problems.map((p) => `  ${p}\n`).join('')}`,
    );
    return 1;
  }
  const wanted = bundleText(messages);
  const current = fs.existsSync(bundlePath) ? fs.readFileSync(bundlePath, 'utf8') : undefined;
  if (check) {
    if (current === wanted) return 0;
    process.stderr.write(
      `l10n: ${path.relative(root, bundlePath)} is stale (${messages.length} messages in the sources); run npm run l10n\n`,
    );
    return 1;
  }
  fs.mkdirSync(path.dirname(bundlePath), { recursive: true });
  if (current !== wanted) fs.writeFileSync(bundlePath, wanted);
  process.stdout.write(`l10n: ${messages.length} messages in ${path.relative(root, bundlePath)}\n`);
  return 0;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = main(process.argv.slice(2));
