// TypeScript cells in a real VS Code: the built-in TypeScript extension's TS server, with ptc-notebook-ts-plugin
// loaded from the installed VSIX, offers the program's real globals (the bindings, Node's console and timers) and
// not the DOM's; hovers name real types; signature help inside `tools.search({` names the parameter's fields.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cellById, openNotebook, waitFor, withExtension } from './support/notebooks.js';

const label = (item: vscode.CompletionItem): string => (typeof item.label === 'string' ? item.label : item.label.label);

async function completions(uri: vscode.Uri, position: vscode.Position): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    uri,
    position,
  );
  return list.items.map(label);
}

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

// The code blocks of a hover (its declarations), without the prose of doc comments.
const codeOf = (markdown: string): string =>
  [...markdown.matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');

suite('TypeScript cell IntelliSense', () => {
  withExtension();

  test('completions, hovers and signature help come from the bindings SDK and Node, never the DOM', async () => {
    const editor = await openNotebook('fixtures', 'intellisense.ptcnb');
    const cell = cellById(editor.notebook, 'search').document;
    assert.equal(cell.languageId, 'typescript');

    // the extension describes the bindings and configures the TS server plugin: wait until THIS notebook's SDK arrives
    // (its error class is its own; an earlier suite's notebook may have left another SDK with a `tools` namespace)
    const names = await waitFor(
      'the bindings SDK in the completions of a TypeScript cell',
      async () => {
        const offered = await completions(cell.uri, new vscode.Position(3, 0));
        return offered.includes('tools') && offered.includes('ToolError') ? offered : undefined;
      },
      120_000,
    );
    for (const name of ['tools', 'ToolError', 'console', 'setTimeout', 'setImmediate', 'process', 'Buffer', 'fetch']) {
      assert.ok(names.includes(name), `${name} is not offered (offered: ${names.length} names)`);
    }
    for (const name of ['ActiveXObject', 'Animation', 'document', 'window', 'HTMLElement']) {
      assert.ok(!names.includes(name), `the DOM's ${name} is offered`);
    }

    // hovers: the call's declaration and the results' types, never `any`
    const call = await hoverText(cell.uri, new vscode.Position(0, 27));
    assert.match(codeOf(call), /search\(args: \{/, call);
    assert.match(codeOf(call), /Promise<string\[\]>/, call);
    assert.match(call, /Search the documents\./, call);
    const found = await hoverText(cell.uri, new vscode.Position(0, 8));
    assert.match(codeOf(found), /const found: string\[\]/, found);
    const reply = await hoverText(cell.uri, new vscode.Position(1, 8));
    assert.match(codeOf(reply), /const reply: JsonValue/, reply);
    for (const hover of [call, found, reply]) assert.doesNotMatch(codeOf(hover), /\bany\b/, hover);

    // signature help inside `tools.search({ `
    const help = await vscode.commands.executeCommand<vscode.SignatureHelp>(
      'vscode.executeSignatureHelpProvider',
      cell.uri,
      new vscode.Position(4, 15),
      '(',
    );
    const signature = help?.signatures[help.activeSignature ?? 0];
    assert.ok(signature !== undefined, 'no signature help inside tools.search({');
    assert.match(signature.label, /query: string/, signature.label);
    assert.match(signature.label, /limit\?: number/, signature.label);
    const documentation =
      typeof signature.documentation === 'string' ? signature.documentation : (signature.documentation?.value ?? '');
    assert.match(documentation, /Search the documents\./);
    // the editor labels an optional property `limit?`
    const fields = (await completions(cell.uri, new vscode.Position(4, 15))).map((f) => f.replace(/\?$/, ''));
    assert.ok(
      fields.includes('query') && fields.includes('limit'),
      `fields offered inside tools.search({: ${fields.slice(0, 20).join(', ')}`,
    );
  });

  test('the TypeScript cells see the bindings of the notebook being edited', async () => {
    const offers = (cell: vscode.TextDocument, name: string) => async () =>
      (await completions(cell.uri, new vscode.Position(0, 0))).includes(name) ? true : undefined;
    const search = cellById((await openNotebook('fixtures', 'intellisense.ptcnb')).notebook, 'search').document;
    await waitFor('tools in the search notebook', offers(search, 'tools'), 120_000);
    // modes.ptcnb names another module (its global is `probe`): switching notebooks switches the SDK
    const which = cellById((await openNotebook('fixtures', 'modes.ptcnb')).notebook, 'which').document;
    await waitFor('probe in the modes notebook', offers(which, 'probe'), 120_000);
    assert.ok(
      !(await completions(which.uri, new vscode.Position(0, 0))).includes('tools'),
      'the other notebook’s tools are still offered',
    );
    await openNotebook('fixtures', 'intellisense.ptcnb');
    await waitFor('tools again after switching back', offers(search, 'tools'), 120_000);
  });
});
