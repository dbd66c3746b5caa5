// The TS server plugin (contributes.typescriptServerPlugins): notebook cells are checked against what a program
// really sees — ES2023, Node's globals and the notebook's bindings SDK — instead of the browser's DOM library.
// It runs inside VS Code's TS server, never in the extension host: no `vscode`, no runtime imports.
import path from 'node:path';
import type * as ts from 'typescript';
import { isAutoImport, isNotebookCell, parseConfig, programFileNames, programOptions } from './notebook-program.js';

// markAsDirty is internal to the TS server but stable since TS 2.x: it makes the next request rebuild the program
type Project = ts.server.Project & { markAsDirty?: () => void };

// The TS server calls this once per project, so its state is that project's.
function init(): ts.server.PluginModule {
  // Node's declarations ship inside this package (node_modules/@types/node next to index.js)
  const nodeTypes = path.join(__dirname, 'node_modules', '@types', 'node', 'index.d.ts');
  let project: Project | undefined;
  let config = parseConfig(undefined);

  return {
    create(info: ts.server.PluginCreateInfo): ts.LanguageService {
      project = info.project as Project;
      // a project made after the extension configured the plugin gets that configuration here
      config = parseConfig(info.config);
      // in the TS server the language service host is the project itself: its program is built from these two
      const host = info.languageServiceHost;
      const rootNames = host.getScriptFileNames.bind(host);
      const settings = host.getCompilationSettings.bind(host);
      host.getScriptFileNames = () => programFileNames(rootNames(), [nodeTypes, ...config.declarationFiles]);
      host.getCompilationSettings = () => programOptions(settings(), rootNames());
      // completions in a cell never offer an auto-import: the import it would add cannot run there
      const service = info.languageService;
      const completions = service.getCompletionsAtPosition.bind(service);
      service.getCompletionsAtPosition = (fileName, position, options, formatting) => {
        const found = completions(fileName, position, options, formatting);
        if (found === undefined || !isNotebookCell(fileName)) return found;
        return { ...found, entries: found.entries.filter((entry) => !isAutoImport(entry)) };
      };
      return service;
    },
    onConfigurationChanged(value: unknown): void {
      config = parseConfig(value);
      if (project === undefined || project.isClosed()) return;
      // the next request rebuilds the program with the new SDK; open cells get fresh diagnostics
      project.markAsDirty?.();
      project.refreshDiagnostics();
    },
  };
}

// the TS server requires the module itself to be the factory (the build sets module.exports to this default)
export default init;
