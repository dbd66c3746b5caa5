// Runs one bundled extension-host pass inside code-server: the smoke-test driver loads the runner through the
// `payload` URL parameter, and the workbench reports back through window.codeAutomationExit / codeAutomationLog.
import { appendFile, readFile, rm } from 'node:fs/promises';
import { readWorkbenchConfig } from './code-server.mjs';
import { info } from './log.mjs';

const REPORT_PREFIX = '[ptc-e2e] ';
// network noise from the server's gallery and update probes (there is no network here), harmless
const NOISE = /ENOTFOUND|EAI_AGAIN|getaddrinfo|marketplace|gallery|open-vsx|ERR_NAME_NOT_RESOLVED|net::ERR_/i;

function stringifyArg(arg) {
  if (typeof arg === 'string') return arg;
  try {
    return JSON.stringify(arg);
  } catch {
    return String(arg);
  }
}

// Parses the runner's JSON event lines out of extension-host console output.
export function parseReportLines(text) {
  const events = [];
  for (const line of text.split('\n')) {
    const at = line.indexOf(REPORT_PREFIX);
    if (at < 0) continue;
    try {
      events.push(JSON.parse(line.slice(at + REPORT_PREFIX.length)));
    } catch {
      // a line cut by the console bridge; results.json is the authority
    }
  }
  return events;
}

// Folds runner events into { passed: string[], failed: {title, error}[], pending: string[] }.
export function summarize(events) {
  const outcome = { passed: [], failed: [], pending: [] };
  for (const e of events) {
    if (e.event === 'pass') outcome.passed.push(e.title);
    else if (e.event === 'fail') outcome.failed.push({ title: e.title, error: e.error });
    else if (e.event === 'pending') outcome.pending.push(e.title);
  }
  return outcome;
}

// Loads results.json written by the runner; falls back to the streamed lines if the host died before writing it.
export async function collectOutcome(bundle, streamed) {
  let events;
  try {
    events = JSON.parse(await readFile(`${bundle.dir}/results.json`, 'utf8'));
  } catch {
    events = parseReportLines(streamed);
  }
  const outcome = summarize(events);
  if (!events.some((e) => e.event === 'end')) {
    outcome.failed.push({
      title: 'extension-host run',
      error: 'the runner never reported the end of the run (crash or timeout); see the log',
    });
  }
  return outcome;
}

export async function runExtensionHostPass({
  browser,
  server,
  pass,
  bundle,
  extensionPath,
  logFile,
  timeoutMs = 15 * 60_000,
}) {
  await rm(`${bundle.dir}/results.json`, { force: true });
  const { remoteAuthority } = await readWorkbenchConfig(server);
  const remote = (p) => `vscode-remote://${remoteAuthority}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionPath)],
    ['extensionTestsPath', remote(bundle.index)],
  ];
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  let streamed = '';
  let resolveExit;
  const exited = new Promise((resolve) => (resolveExit = resolve));
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = (Array.isArray(args) ? args : [args]).map(stringifyArg).join(' ');
    streamed += `${text}\n`;
    if (text.includes(REPORT_PREFIX)) {
      const [event] = parseReportLines(text);
      if (event?.event === 'pass') info(`exthost:${pass}`, `✓ ${event.title} (${event.durationMs} ms)`);
      if (event?.event === 'fail') info(`exthost:${pass}`, `✗ ${event.title}\n${event.error}`);
    }
    if (!NOISE.test(text)) void appendFile(logFile, `[${type}] ${text}\n`);
  });
  page.on('console', (msg) => {
    const text = msg.text();
    if (!NOISE.test(text)) void appendFile(logFile, `[page:${msg.type()}] ${text}\n`);
  });
  page.on('pageerror', (error) => void appendFile(logFile, `[page:error] ${error.stack ?? error.message}\n`));
  const url = `${server.url}/?folder=${encodeURIComponent(server.folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  info(`exthost:${pass}`, `running ${bundle.files.length} suite file(s) in the extension host`);
  const started = Date.now();
  let timer;
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    const timedOut = new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const code = await Promise.race([exited, timedOut]);
    const outcome = await collectOutcome(bundle, streamed);
    if (code === 'timeout')
      outcome.failed.push({ title: `extension-host pass ${pass}`, error: `no exit within ${timeoutMs / 1000} s` });
    else if (code !== 0 && outcome.failed.length === 0) {
      outcome.failed.push({
        title: `extension-host pass ${pass}`,
        error: `the runner exited with code ${code} but reported no failing test; see ${logFile}`,
      });
    }
    info(
      `exthost:${pass}`,
      `${outcome.passed.length} passed, ${outcome.failed.length} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return outcome;
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => {});
  }
}
