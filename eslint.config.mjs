// Lint: typescript-eslint recommended, layering enforced by import restrictions, no floating promises.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// runtime/ folders behind its public surface (runtime/index.ts)
const runtimeInternals = [
  'assets',
  'bindings',
  'bindings-host',
  'channel',
  'contract',
  'engine',
  'import',
  'json',
  'notebook',
  'output',
  'process',
  'protocol',
  'python',
  'replay',
  'sandbox',
  'sdk',
  'session',
  'types',
  'typescript',
];
const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'child_process',
  'net',
  'http',
  'crypto',
  'util',
  'stream',
  'worker_threads',
  'vm',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.cache/**',
      'out/**',
      'test-results/**',
      'coverage/**',
      '**/*.cjs',
      'examples/**/*.mjs',
      'test/fixtures/**/*.mjs',
      'examples/programs/**',
      'test/hostile/programs/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      // JSON and protocol scanners match control characters on purpose
      'no-control-regex': 'off',
    },
  },
  {
    files: ['runtime/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'runtime/ is VS Code-free' }] }] },
  },
  {
    // front ends use the runtime's public surface only
    files: ['extension/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/runtime/**', '!**/runtime/index.js'],
              message: 'extension/ imports the runtime through runtime/index.ts only',
            },
          ],
        },
      ],
    },
  },
  {
    // the browser entry's door is runtime/browser.ts (the web build resolves runtime/index.js there too)
    files: ['extension/web/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/runtime/**', '!**/runtime/index.js', '!**/runtime/browser.js'],
              message: 'extension/web/ imports the runtime through runtime/browser.ts or runtime/index.ts only',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['runtime/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'runtime/ is VS Code-free' }],
          patterns: [
            {
              group: ['**/api.js', ...runtimeInternals.map((dir) => `**/${dir}/**`)],
              message: 'the CLI imports the runtime through runtime/index.ts only',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'webview/ is browser code' },
            ...nodeBuiltins.map((name) => ({ name, message: 'webview/ is browser code' })),
          ],
          patterns: [{ group: ['node:*'], message: 'webview/ is browser code' }],
        },
      ],
    },
  },
  {
    // tests and scripts may use any and console freely where they probe hostile behaviour
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-console': 'off' },
  },
  {
    // one width for code and comments: prettier wraps code at 120, this holds comments there too (a string, a template
    // literal, a regular expression or a URL cannot be wrapped without changing it)
    files: ['**/*.ts', '**/*.mts', '**/*.mjs'],
    // as .prettierignore: examples and fixtures keep the bytes they were written with
    ignores: ['examples/**', 'test/**/fixtures/**'],
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: globals.node } },
  // pages loaded into Chromium by the renderer tests
  { files: ['test/webview/page/**/*.js'], languageOptions: { globals: globals.browser } },
);
