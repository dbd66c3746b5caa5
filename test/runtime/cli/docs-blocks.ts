// The fenced blocks of a Markdown file, and the convention that makes shell blocks executable documentation
// (README.md, "Commands in the docs are tested"): a block whose language is sh, bash, shell or console is run by
// docs-commands.test.ts from the repository root, unless its info string says skip="<why>".
//   sh / bash / shell   the block is one script: every line as the shell reads it (comments, `\` continuations)
//   console             `$ ` lines are commands; the lines after one, up to the next, are what it prints
//                       (stdout and stderr as a terminal shows them); `…` stands for any text within a line, and
//                       a line that is only `…` for any number of lines
export interface FencedBlock {
  file: string;
  // 1-based line of the opening fence
  line: number;
  language: string;
  // why the block is not run (the info string's skip="…"), if it is not
  skip: string | undefined;
  body: string;
}

export const COMMAND_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);

export function fencedBlocks(file: string, markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/.exec(lines[i] ?? '');
    // as CommonMark: a backtick fence's info string has no backtick (```` ```sh ```` is inline code)
    if (open === null || (open[1]?.startsWith('`') === true && open[2]?.includes('`') === true)) continue;
    const fence = open[1] as string;
    const info = (open[2] ?? '').trim();
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j] ?? '');
      if (close !== null && (close[1] as string)[0] === fence[0] && (close[1] as string).length >= fence.length) break;
      body.push(lines[j] ?? '');
    }
    const skip = /\bskip="([^"]*)"/.exec(info)?.[1];
    blocks.push({ file, line: i + 1, language: info.split(/\s+/)[0] ?? '', skip, body: body.join('\n') });
    i = j;
  }
  return blocks;
}

// A console block's commands, each with the output it documents.
export function consoleSteps(body: string): { command: string; output: string[] }[] {
  const steps: { command: string; output: string[] }[] = [];
  for (const line of body.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else if (steps.length > 0) steps[steps.length - 1]?.output.push(line);
  }
  for (const step of steps)
    while (step.output.length > 0 && step.output[step.output.length - 1]?.trim() === '') step.output.pop();
  return steps;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Whether printed text is what the documentation says, `…` matching any text in a line, a lone `…` any lines.
export function matchesDocumented(documented: readonly string[], printed: string): boolean {
  const pattern = documented
    .map((line) =>
      line.trim() === '…'
        ? '(?:[^\\n]*\\n)*?'
        : `${line.trimEnd().split('…').map(escapeRegExp).join('[^\\n]*')}[ \\t]*\\n`,
    )
    .join('');
  const text = `${printed
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n+$/, '')}\n`;
  return new RegExp(`^${pattern}$`).test(text);
}
