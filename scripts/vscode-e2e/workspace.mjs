// Lays out the folder code-server opens: copies of examples/ and test/vscode/fixtures/, so saves never touch the repo.
import { cp, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, TEST_SOURCE_DIR } from './paths.mjs';

export async function prepareWorkspace(dir) {
  await mkdir(dir, { recursive: true });
  const examples = path.join(REPO_ROOT, 'examples');
  if (existsSync(examples)) await cp(examples, path.join(dir, 'examples'), { recursive: true });
  const fixtures = path.join(TEST_SOURCE_DIR, 'fixtures');
  if (existsSync(fixtures)) await cp(fixtures, path.join(dir, 'fixtures'), { recursive: true });
  return dir;
}
