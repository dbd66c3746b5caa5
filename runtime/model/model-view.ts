import { createHash } from 'node:crypto';
import type { JsonValue } from '../protocol/json-value.js';
import type { Language } from '../protocol/run-result.js';
import { renderSdk } from '../sdk/index.js';
import { sortedNamespaces, type SdkSource } from '../sdk/sdk-source.js';
import type { ToolSpec } from './chat-types.js';

// code: one `run_code` tool whose description is the SDK; direct: every binding offered as a function-calling tool.
export type LoopMode = 'code' | 'direct';
export const LOOP_MODES: readonly LoopMode[] = ['code', 'direct'];

export const RUN_CODE_TOOL = 'run_code';

export interface DirectTarget {
  global: string;
  name: string;
}

// Everything the model is shown before the task: the system text and the tools. Hashing it names the prompt.
export interface ModelView {
  mode: LoopMode;
  language: Language;
  system: string;
  tools: ToolSpec[];
  task: string;
  // sha256 of the system text, the tools and the task (16 hex digits): the same view always has the same hash
  promptHash: string;
  // direct mode: tool name → the binding it calls
  direct: ReadonlyMap<string, DirectTarget>;
}

const CODE_SYSTEM = [
  "You complete the user's task by writing programs and running them with the `run_code` tool; its result (what the program printed and returned, or how it failed) comes back to you.",
  'Call `run_code` as often as you need. When you know the answer, reply with the final answer as plain text and do not call a tool.',
].join('\n');
const DIRECT_SYSTEM = [
  "You complete the user's task by calling the tools; each tool's result comes back to you.",
  'When you know the answer, reply with the final answer as plain text and do not call a tool.',
].join('\n');

export function modelView(input: { module: SdkSource; language: Language; task: string; mode: LoopMode }): ModelView {
  const { mode, task } = input;
  // direct mode calls each binding from a TypeScript program of one call, whatever the notebook's language
  const language: Language = mode === 'direct' ? 'typescript' : input.language;
  const direct = new Map<string, DirectTarget>();
  let tools: ToolSpec[];
  if (mode === 'code') {
    const sdk = renderSdk(input.module, language);
    tools = [
      {
        name: RUN_CODE_TOOL,
        description: sdk.text,
        inputSchema: {
          type: 'object',
          properties: {
            code: {
              type: 'string',
              description: language === 'python' ? 'the Python program' : 'the TypeScript program',
            },
            description: { type: 'string', description: 'a 5–10 word, active-voice label of what the program does' },
          },
          required: ['code', 'description'],
        },
      },
    ];
  } else {
    tools = [];
    for (const ns of sortedNamespaces(input.module)) {
      for (const fn of ns.functions) {
        const name = toolName(`${ns.global}_${fn.name}`, direct);
        direct.set(name, { global: ns.global, name: fn.name });
        tools.push({
          name,
          description: fn.description ?? `${ns.global}.${fn.name}`,
          inputSchema: fn.input === undefined ? { type: 'object' } : (fn.input as { [key: string]: JsonValue }),
        });
      }
    }
  }
  const system = mode === 'code' ? CODE_SYSTEM : DIRECT_SYSTEM;
  const promptHash = createHash('sha256').update(JSON.stringify({ system, tools, task })).digest('hex').slice(0, 16);
  return { mode, language, system, tools, task, promptHash, direct };
}

// The name alphabet both APIs accept (^[A-Za-z0-9_-]{1,64}$), made unique by a numeric suffix.
function toolName(raw: string, taken: ReadonlyMap<string, DirectTarget>): string {
  const base = raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'tool';
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  return name;
}
