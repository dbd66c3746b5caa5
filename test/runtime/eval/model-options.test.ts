// Per-model options as settings give them: "*" for every model, then keys naming the model, the more specific winning.
import { describe, expect, it } from 'vitest';
import { ModelOptionsTableSchema, modelOptionsFor } from '../../../runtime/index.js';

describe('model options per model', () => {
  const table = ModelOptionsTableSchema.parse({
    '*': { temperature: 0, maxTokens: 2000 },
    o3: { reasoningEffort: 'high', temperature: 1 },
    'openai:o3': { maxTokens: 8000 },
    'copilot/gpt-4o': { seed: 7 },
    'openai:llama3.1@http://localhost:11434/v1': { toolChoice: 'required' },
  });

  it.each([
    ['openai:o3', { temperature: 1, maxTokens: 8000, reasoningEffort: 'high' }],
    ['openai:o3@https://proxy.example/v1', { temperature: 1, maxTokens: 8000, reasoningEffort: 'high' }],
    ['vscode-lm:copilot/gpt-4o', { temperature: 0, maxTokens: 2000, seed: 7 }],
    ['anthropic:claude-sonnet-4-5', { temperature: 0, maxTokens: 2000 }],
    ['openai:llama3.1@http://localhost:11434/v1', { temperature: 0, maxTokens: 2000, toolChoice: 'required' }],
    ['openai:llama3.1', { temperature: 0, maxTokens: 2000 }],
  ])('%s gets %j', (label, expected) => {
    expect(modelOptionsFor(table, label)).toEqual(expected);
  });

  it('an empty table gives no options; a key named like a prototype field is only a key', () => {
    expect(modelOptionsFor({}, 'openai:gpt-4o')).toEqual({});
    expect(modelOptionsFor(ModelOptionsTableSchema.parse({ constructor: { seed: 1 } }), 'openai:gpt-4o')).toEqual({});
  });

  it.each([
    [{ '*': { temperature: 3 } }, 'temperature'],
    [{ o3: { reasoningEffort: 'max' } }, 'reasoningEffort'],
    [{ o3: { top_p: 1 } }, 'top_p'],
    [{ '': { seed: 1 } }, ''],
  ])('an invalid table (%j) is refused, naming %s', (value, name) => {
    const parsed = ModelOptionsTableSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(name);
  });
});
