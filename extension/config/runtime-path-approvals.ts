import type { Language } from '../../runtime/index.js';
import * as vscode from 'vscode';
import { APPROVED_PATHS_KEY, CONFIG_SECTION } from '../constants.js';
import type { ApprovalOutcome } from '../execution/cell-job.js';
import type { Logger } from '../log/logger.js';
import { approvalKey, decideRuntimePath, type RuntimePathKey } from './path-approval.js';

// Asks once before spawning an interpreter path that came from workspace settings; approvals persist per workspace.
export class RuntimePathApprovals {
  readonly #state: vscode.Memento;
  readonly #log: Logger;
  readonly #denied = new Set<string>();
  readonly #prompts = new Map<string, Promise<boolean>>();

  constructor(state: vscode.Memento, log: Logger) {
    this.#state = state;
    this.#log = log;
  }

  async approve(language: Language, scope: vscode.Uri): Promise<ApprovalOutcome> {
    const key: RuntimePathKey = language === 'python' ? 'pythonPath' : 'nodePath';
    const inspection = vscode.workspace.getConfiguration(CONFIG_SECTION, scope).inspect<string>(key) ?? {};
    const decision = decideRuntimePath(key, inspection, {
      approved: this.#approved(),
      deniedThisSession: this.#denied,
    });
    if (decision.kind === 'use')
      return { ok: true, paths: decision.path === undefined ? {} : { [key]: decision.path } };
    const id = approvalKey(key, decision.path);
    const allowed = decision.kind === 'denied' ? false : await this.#ask(id, key, decision.path, decision.source);
    if (allowed) return { ok: true, paths: { [key]: decision.path } };
    const message = vscode.l10n.t(
      'Not run: the {0} setting {1}.{2} points to {3}, and running it was not allowed. Run "PTC Playground: Review Interpreter Paths" to decide again.',
      decision.source,
      CONFIG_SECTION,
      key,
      decision.path,
    );
    return { ok: false, message, actions: ['review-runtime-paths'] };
  }

  // Forgets approvals and this session's denials (the next run asks again).
  async reset(): Promise<void> {
    this.#denied.clear();
    await this.#state.update(APPROVED_PATHS_KEY, []);
    this.#log.info('interpreter path approvals cleared');
  }

  #approved(): string[] {
    const stored: unknown = this.#state.get(APPROVED_PATHS_KEY);
    return Array.isArray(stored) ? stored.filter((v): v is string => typeof v === 'string') : [];
  }

  // one dialog per path even when many queued cells need it
  #ask(id: string, key: RuntimePathKey, path: string, source: string): Promise<boolean> {
    let prompt = this.#prompts.get(id);
    if (prompt === undefined) {
      prompt = this.#prompt(id, key, path, source).finally(() => this.#prompts.delete(id));
      this.#prompts.set(id, prompt);
    }
    return prompt;
  }

  async #prompt(id: string, key: RuntimePathKey, path: string, source: string): Promise<boolean> {
    const allow = vscode.l10n.t('Allow');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'The {0} settings set {1}.{2} to "{3}". PTC Playground would run this program for notebook cells. Allow it for this workspace?',
        source,
        CONFIG_SECTION,
        key,
        path,
      ),
      {
        modal: true,
        detail: vscode.l10n.t('Only allow programs you trust: a workspace can point this setting at any executable.'),
      },
      allow,
    );
    if (answer === allow) {
      await this.#state.update(APPROVED_PATHS_KEY, [...this.#approved(), id]);
      this.#log.info(`approved ${CONFIG_SECTION}.${key} = ${path}`);
      return true;
    }
    this.#denied.add(id);
    this.#log.warn(`not approved: ${CONFIG_SECTION}.${key} = ${path} (asked again next session)`);
    return false;
  }
}
