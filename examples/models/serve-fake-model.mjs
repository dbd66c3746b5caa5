#!/usr/bin/env node
// Serves the fake model API (fake-model-server.mjs) until stopped; prints its base URL on the first line.
// Usage: node serve-fake-model.mjs --script fake-model.json [--port 0]
import fs from 'node:fs';
import { startFakeModelServer } from './fake-model-server.mjs';

const args = process.argv.slice(2);
const at = (flag) => {
  const i = args.indexOf(flag);
  return i === -1 ? undefined : args[i + 1];
};
const scriptPath = at('--script');
const script = scriptPath === undefined ? { rules: [] } : JSON.parse(fs.readFileSync(scriptPath, 'utf8'));
const server = await startFakeModelServer({ script, port: Number(at('--port') ?? 0) });
process.stdout.write(`${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
