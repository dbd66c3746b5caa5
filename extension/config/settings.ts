import { LIMITS, ModelOptionsTableSchema } from '../../runtime/index.js';
import { z } from 'zod';

export type SettingScope = 'application' | 'machine' | 'machine-overridable' | 'window' | 'resource';

interface SettingSpec<T extends z.ZodType> {
  schema: T;
  default: z.infer<T>;
  scope: SettingScope;
  // interpreter paths and the sandbox level are what Restricted Mode must not take from a workspace
  restricted?: boolean;
  // changing it re-registers the notebook serializer
  reregistersSerializer?: boolean;
}

function spec<T extends z.ZodType>(s: SettingSpec<T>): SettingSpec<T> {
  return s;
}

const intIn = (min: number, max: number): z.ZodNumber => z.number().int().min(min).max(max);

// The single source of truth for `ptcPlayground.*`; a test checks package.json against it.
export const SETTINGS = {
  pythonPath: spec({ schema: z.string(), default: '', scope: 'machine-overridable', restricted: true }),
  nodePath: spec({ schema: z.string(), default: '', scope: 'machine-overridable', restricted: true }),
  'limits.timeoutMs': spec({
    schema: intIn(1, LIMITS.timeoutMs.max),
    default: LIMITS.timeoutMs.default,
    scope: 'resource',
  }),
  'limits.maxOutputBytes': spec({
    schema: intIn(LIMITS.maxOutputBytes.min, LIMITS.maxOutputBytes.max),
    default: LIMITS.maxOutputBytes.default,
    scope: 'resource',
  }),
  'limits.tmpMb': spec({
    schema: intIn(LIMITS.tmpMb.min, LIMITS.tmpMb.max),
    default: LIMITS.tmpMb.default,
    scope: 'resource',
  }),
  // 0: the runtime's default (LIMITS.maxCalls.live with live handlers, no cap with mock handlers or a replay)
  'limits.maxCalls': spec({ schema: intIn(0, LIMITS.maxCalls.max), default: 0, scope: 'resource' }),
  'limits.memoryMb': spec({
    schema: intIn(LIMITS.memoryMb.min, LIMITS.memoryMb.max),
    default: LIMITS.memoryMb.default,
    scope: 'resource',
  }),
  sandbox: spec({
    schema: z.enum(['required', 'best-effort', 'off']),
    default: 'best-effort',
    scope: 'machine-overridable',
    restricted: true,
  }),
  // auto: native engines where the OS sandbox proves itself, else the WebAssembly engines (runtime engine choice)
  engine: spec({
    schema: z.enum(['auto', 'native', 'wasm']),
    default: 'auto',
    scope: 'machine-overridable',
    restricted: true,
  }),
  defaultMode: spec({ schema: z.enum(['mock', 'live']), default: 'mock', scope: 'resource' }),
  defaultBindings: spec({ schema: z.string(), default: '', scope: 'resource' }),
  'notebook.saveOutputs': spec({ schema: z.boolean(), default: true, scope: 'window', reregistersSerializer: true }),
  // where task cells send the model view: machine scope, so a workspace can never redirect a key to its own server
  'model.provider': spec({
    schema: z.enum(['auto', 'vscode-lm', 'openai', 'anthropic']),
    default: 'auto',
    scope: 'machine',
  }),
  'model.baseUrl': spec({ schema: z.string(), default: '', scope: 'machine' }),
  'model.name': spec({ schema: z.string(), default: '', scope: 'machine' }),
  'model.maxTurns': spec({ schema: intIn(1, 50), default: 1, scope: 'resource' }),
  // temperature, seed, max tokens, reasoning effort, thinking budget, tool choice, per model ("*": every model)
  'model.options': spec({ schema: ModelOptionsTableSchema, default: {}, scope: 'resource' }),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type PlaygroundConfig = { [K in SettingKey]: z.infer<(typeof SETTINGS)[K]['schema']> };

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

// The run limits the settings give every cell (a cell's own metadata.limits narrow them further).
export function settingsLimits(config: PlaygroundConfig): {
  timeoutMs: number;
  maxOutputBytes: number;
  memoryMb: number;
  tmpMb: number;
  sandbox: PlaygroundConfig['sandbox'];
  engine: PlaygroundConfig['engine'];
  maxCalls?: number;
} {
  return {
    timeoutMs: config['limits.timeoutMs'],
    maxOutputBytes: config['limits.maxOutputBytes'],
    memoryMb: config['limits.memoryMb'],
    tmpMb: config['limits.tmpMb'],
    sandbox: config.sandbox,
    engine: config.engine,
    ...(config['limits.maxCalls'] > 0 ? { maxCalls: config['limits.maxCalls'] } : {}),
  };
}

export interface ConfigProblem {
  key: SettingKey;
  message: string;
}

// Reads every setting through its schema; an invalid value falls back to the default and is reported.
export function parseConfig(read: (key: SettingKey) => unknown): {
  config: PlaygroundConfig;
  problems: ConfigProblem[];
} {
  const problems: ConfigProblem[] = [];
  const config: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const setting = SETTINGS[key];
    const raw = read(key);
    if (raw === undefined || raw === null) {
      config[key] = setting.default;
      continue;
    }
    const parsed = setting.schema.safeParse(raw);
    if (parsed.success) config[key] = parsed.data;
    else {
      config[key] = setting.default;
      problems.push({
        key,
        message: `${parsed.error.issues[0]?.message ?? 'invalid value'} (got ${JSON.stringify(raw)}); using ${JSON.stringify(setting.default)}`,
      });
    }
  }
  return { config: config as PlaygroundConfig, problems };
}

// The settings whose change needs more than reading them again on the next run.
export function keysWhere(flag: 'reregistersSerializer' | 'restricted'): SettingKey[] {
  return SETTING_KEYS.filter((key) => (SETTINGS[key] as SettingSpec<z.ZodType>)[flag] === true);
}
