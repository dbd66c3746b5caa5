// A dedicated worker from source text embedded in the web extension (scripts/build-web-extension.mjs): a blob: URL is
// same-origin wherever the extension's own files are served from; one URL per source for the extension host's life.
const urls = new Map<string, string>();

export function embeddedWorker(source: string, name: string): Worker {
  let url = urls.get(source);
  if (url === undefined) {
    url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    urls.set(source, url);
  }
  return new Worker(url, { name });
}
