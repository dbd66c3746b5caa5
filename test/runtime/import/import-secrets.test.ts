import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { verifyImportedNotebook } from '../../../runtime/import/index.js';
import { SecretScrubber } from '../../../runtime/import/secrets.js';
import { allWritten, importInto, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-secrets-');

// Credentials a log commonly carries: vendor keys, a custom bearer token known only from a header, a key-named field.
const ANTHROPIC_KEY = 'sk-ant-api03-SECRETSECRETSECRET0123456789';
const BEARER = 'tok_live_customsecret_abcdef123456';
const OPENAI_KEY = 'sk-proj-AAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const PASSWORD = 'hunter2-is-long';
const GITHUB = `ghp_${'x1'.repeat(18)}`;
const SECRETS = [ANTHROPIC_KEY, BEARER, OPENAI_KEY, PASSWORD, GITHUB];

const code = `result = await call_api(url="https://api.example/v1", key="${OPENAI_KEY}", password="${PASSWORD}")
print(result)`;
const log = [
  {
    request: {
      headers: [
        { name: 'x-api-key', value: ANTHROPIC_KEY },
        { name: 'Authorization', value: `Bearer ${BEARER}` },
      ],
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        tools: [
          {
            name: 'call_api',
            input_schema: { type: 'object', properties: { url: {}, key: {}, password: {} } },
            allowed_callers: ['code_execution_20250825'],
          },
        ],
        messages: [
          { role: 'user', content: `Use my token ${GITHUB} if you need GitHub.` },
          {
            role: 'assistant',
            content: [
              { type: 'server_tool_use', id: 'srvtoolu_s', name: 'code_execution', input: { code } },
              {
                type: 'tool_use',
                id: 'toolu_s',
                name: 'call_api',
                input: { url: 'https://api.example/v1', key: OPENAI_KEY, password: PASSWORD },
                caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_s' },
              },
            ],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: `auth failed for ${BEARER}` }],
          },
        ],
      }),
    },
    response: {
      headers: { 'set-cookie': 'session=abcdefgh12345678; HttpOnly' },
      body: {
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'code_execution_tool_result',
            tool_use_id: 'srvtoolu_s',
            content: {
              type: 'code_execution_result',
              stdout: `auth failed for ${BEARER}\n`,
              stderr: '',
              return_code: 0,
              content: [],
            },
          },
        ],
      },
    },
  },
];

describe('secrets in a transcript are never copied', () => {
  test('keys in headers, bodies, tool answers, program text and key-named fields are redacted everywhere, consistently', async () => {
    const dir = fresh();
    const file = path.join(dir, 'log.json');
    fs.writeFileSync(file, JSON.stringify(log));
    const { out, plan } = await importInto(dir, [file]);
    expect(plan.redactions).toBeGreaterThan(0);
    const written = allWritten(dir).filter((w) => w.file !== file);
    expect(written.length).toBe(3);
    for (const { file: f, text } of written) {
      for (const secret of SECRETS) expect(text.includes(secret), `${path.basename(f)} contains ${secret}`).toBe(false);
      expect(text).not.toContain('abcdefgh12345678');
    }
    const notebook = fs.readFileSync(out, 'utf8');
    expect(notebook).toContain('key=\\"[redacted]\\", password=\\"[redacted]\\"');
    expect(notebook).toContain('Use my token [redacted] if you need GitHub.');
    // the program and its recorded arguments were redacted alike, so the replay still matches
    const verified = await verifyImportedNotebook(out);
    if (!verified.ok) throw new Error(verified.message);
    expect(verified.cells[0]).toMatchObject({
      result: { logs: ['auth failed for [redacted]'] },
      comparison: { agrees: true },
    });
  });
});

describe('SecretScrubber', () => {
  test('recognises vendor keys, bearer tokens, JWTs and PEM keys by shape; leaves ordinary text alone', () => {
    const scrubber = new SecretScrubber();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    const pem =
      '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----';
    expect(scrubber.scrubString(`a ${jwt} b`)).toBe('a [redacted] b');
    expect(scrubber.scrubString(pem)).toBe('[redacted]');
    expect(scrubber.scrubString('Authorization: Bearer abc.def-123_456')).toBe('Authorization: Bearer [redacted]');
    expect(scrubber.scrubString('AKIAABCDEFGHIJKLMNOP in aws')).toBe('[redacted] in aws');
    const plain = 'sk-short, a skeleton key, the token count was 12345678';
    expect(scrubber.scrubString(plain)).toBe(plain);
    expect(scrubber.redactions).toBe(4);
  });

  test('scrubs keys named like credentials in deep values without recursion and without a __proto__ setter', () => {
    const scrubber = new SecretScrubber();
    // JSON.parse makes `__proto__` an own key, as it is in a parsed transcript
    let deep: unknown = JSON.parse('{"api_key":"abcdefgh-1234","__proto__":{"polluted":true}}');
    for (let i = 0; i < 50_000; i++) deep = [deep];
    const clean = scrubber.scrubValue(deep as never);
    let inner: unknown = clean;
    for (let i = 0; i < 50_000; i++) inner = (inner as unknown[])[0];
    expect(Object.keys(inner as object)).toEqual(['api_key', '__proto__']);
    expect((inner as Record<string, unknown>).api_key).toBe('[redacted]');
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
