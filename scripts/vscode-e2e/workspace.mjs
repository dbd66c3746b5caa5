// Lays out the folder code-server opens: copies of examples/ and test/vscode/fixtures/, so saves never touch the repo.
import { cp, mkdir, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, TEST_SOURCE_DIR } from './paths.mjs';

// cassettes from earlier local runs would make the copies differ between machines
const skipLocalState = (source) => path.basename(source) !== '.ptc';

export async function prepareWorkspace(dir) {
  await mkdir(dir, { recursive: true });
  const examples = path.join(REPO_ROOT, 'examples');
  // the examples' cassettes are committed (the Test Explorer replays them); the fixtures' are local leftovers
  if (existsSync(examples)) await cp(examples, path.join(dir, 'examples'), { recursive: true });
  const fixtures = path.join(TEST_SOURCE_DIR, 'fixtures');
  if (existsSync(fixtures)) await cp(fixtures, path.join(dir, 'fixtures'), { recursive: true, filter: skipLocalState });
  // the MCP example's server imports @modelcontextprotocol/sdk, resolved upwards from the copy as in a clone
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}
