// What `node:path` is in the browser build: the run request's check that its working directory is absolute. A run in
// the browser has no file system; its cwd is always `/`.
export function isAbsolute(path: string): boolean {
  return path.startsWith('/');
}

export default { isAbsolute };
