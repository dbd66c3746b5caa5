import type { BindingsModule } from '../../runtime/bindings/module-format.js';
import type { Language } from '../../runtime/protocol/run-result.js';
import { completionModel } from '../intellisense/completion-model.js';

// The API text a model is given for a bindings module: one declaration per function, with its description.
export function renderSdkText(module: BindingsModule, language: Language): string {
  const comment = language === 'python' ? '#' : '//';
  const lines: string[] = [];
  for (const ns of completionModel(module)) {
    if (lines.length > 0) lines.push('');
    lines.push(`${comment} ${ns.global}: ${ns.functions.length} function(s)${ns.errorClass === undefined ? '' : `; failures throw ${ns.errorClass}`}`);
    for (const fn of ns.functions) {
      if (fn.description !== undefined) for (const line of fn.description.split('\n')) lines.push(`${comment} ${line}`);
      lines.push(fn.declaration[language]);
    }
  }
  if (lines.length === 0) lines.push(`${comment} the bindings module declares no functions`);
  return `${lines.join('\n')}\n`;
}
