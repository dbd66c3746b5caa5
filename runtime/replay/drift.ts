import { schemaChecks } from '../bindings/module-loader.js';
import type { BindingsModule } from '../bindings/module-format.js';
import type { Cassette } from './cassette-format.js';

const MAX_WARNINGS = 20;

// Where a cassette no longer fits the bindings' current schemas (e.g. after an MCP server update); warnings, not
// errors.
export function cassetteDrift(cassette: Cassette, module: BindingsModule): string[] {
  const warnings: string[] = [];
  cassette.calls.forEach((call, index) => {
    const at = `cassette call #${index + 1} ${call.global}.${call.name}`;
    const ns = module.namespaces[call.global];
    const declaration =
      ns === undefined || !Object.prototype.hasOwnProperty.call(ns.functions, call.name)
        ? undefined
        : ns.functions[call.name];
    if (declaration === undefined) {
      // without its server's tool list there is nothing to compare against (a warning said so at load)
      if (ns?.toolsUnlisted === true) return;
      warnings.push(`${at}: no such function in ${module.path} any more`);
      return;
    }
    const checks = schemaChecks(declaration);
    const args = call.args === null && checks.omittedIsEmptyObject ? {} : call.args;
    // a call refused for its arguments when recorded is not drift
    const refused = !call.ok && call.message?.startsWith(`invalid arguments for ${call.global}.${call.name}:`) === true;
    const inputIssues = refused ? [] : (checks.input?.(args) ?? []);
    if (inputIssues.length > 0)
      warnings.push(`${at}: recorded arguments no longer match the input schema: ${inputIssues.join('; ')}`);
    if (call.ok && call.schemaViolation === undefined) {
      const outputIssues = checks.output?.(call.value) ?? [];
      if (outputIssues.length > 0)
        warnings.push(`${at}: recorded value no longer matches the output schema: ${outputIssues.join('; ')}`);
    }
  });
  if (warnings.length > MAX_WARNINGS)
    return [...warnings.slice(0, MAX_WARNINGS), `… ${warnings.length - MAX_WARNINGS} more schema drift warning(s)`];
  return warnings;
}
