// The SDK the model sees: the `run_code` description and one fenced block declaring the bindings from their schemas.
import type { Language } from '../protocol/run-result.js';
import { renderDescription } from './description.js';
import { renderPythonDeclarations } from './render-py.js';
import { renderTypeScriptDeclarations } from './render-ts.js';
import { sortedNamespaces, type SdkSource } from './sdk-source.js';

export type { SdkFunctionSource, SdkNamespaceSource, SdkSource } from './sdk-source.js';

export interface RenderedSdk {
  language: Language;
  // the whole `run_code` description: usage text followed by the fenced declarations block
  text: string;
  // the declarations alone (a `.d.ts` or `.pyi` body), for editor IntelliSense
  declarations: string;
}

// Byte-stable for a given module: namespaces, functions and properties in code-unit order, no timestamps or paths.
export function renderSdk(source: SdkSource, language: Language): RenderedSdk {
  const namespaces = sortedNamespaces(source);
  const declarations =
    language === 'python' ? renderPythonDeclarations(namespaces) : renderTypeScriptDeclarations(namespaces);
  const fence = language === 'python' ? 'python' : 'ts';
  const text = `${renderDescription(namespaces, language)}\n\`\`\`${fence}\n${declarations}\`\`\`\n`;
  return { language, text, declarations };
}
