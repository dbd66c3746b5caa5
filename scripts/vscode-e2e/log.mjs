// Progress lines for the harness: elapsed time since start, one step name, one message.
const started = Date.now();

export function elapsedSeconds() {
  return (Date.now() - started) / 1000;
}

// Prints `[vscode-e2e +12.3s] step: message` to stderr so stdout stays the test report.
export function info(step, message) {
  process.stderr.write(`[vscode-e2e +${elapsedSeconds().toFixed(1)}s] ${step}: ${message}\n`);
}

// Prints a line of the test report to stdout.
export function report(line) {
  process.stdout.write(`${line}\n`);
}
