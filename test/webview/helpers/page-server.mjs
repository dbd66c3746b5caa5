// A 127.0.0.1 server for the webview test pages: built bundles, the harness pages, fixtures and dynamic routes.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { fixtureText } from '../fixtures/run-results.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const roots = { '/dist/webview/': path.join(repo, 'dist', 'webview'), '/page/': path.join(here, '..', 'page') };
const TYPES = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.json': 'application/json',
  '.map': 'application/json',
};

export async function startPageServer() {
  const routes = new Map();
  const fixtureCache = new Map();
  const server = createServer((req, res) => {
    void handle(req, res).catch((error) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error?.stack ?? error));
    });
  });
  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = routes.get(url.pathname);
    if (route !== undefined) {
      const body = typeof route.body === 'function' ? await route.body(url) : route.body;
      res.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-store' });
      res.end(body);
      return;
    }
    const fixture = /^\/fixtures\/([\w-]+)\.json$/.exec(url.pathname);
    if (fixture !== null) {
      const name = fixture[1];
      if (!fixtureCache.has(name)) fixtureCache.set(name, fixtureText(name));
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(fixtureCache.get(name));
      return;
    }
    for (const [prefix, dir] of Object.entries(roots)) {
      if (!url.pathname.startsWith(prefix)) continue;
      const file = path.join(dir, decodeURIComponent(url.pathname.slice(prefix.length)));
      if (!file.startsWith(dir)) break;
      try {
        const body = await readFile(file);
        res.writeHead(200, {
          'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(body);
      } catch {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`not found: ${url.pathname}`);
      }
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end(`not found: ${url.pathname}`);
  }
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    route(pathname, type, body) {
      routes.set(pathname, { type, body });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
