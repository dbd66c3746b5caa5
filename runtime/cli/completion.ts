import { shownFlags, type CliCommand } from './usage-error.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

// Every command's flags and the words a flag takes, from the same specs that parse them (never a list kept by hand).
function table(
  commands: readonly CliCommand[],
): { name: string; flags: string[]; choices: [string, readonly string[]][] }[] {
  const extra = [{ name: 'completion', flags: ['--help'], choices: [] }];
  return [
    ...commands.map((c) => ({
      name: c.name,
      flags: [
        ...shownFlags(c.flags).flatMap(([n, f]) => [`--${n}`, ...(f.short === undefined ? [] : [`-${f.short}`])]),
        '--help',
      ],
      choices: shownFlags(c.flags).flatMap(([n, f]) =>
        f.choices === undefined ? [] : [[`--${n}`, f.choices] as [string, readonly string[]]],
      ),
    })),
    ...extra,
  ];
}

// `ptc completion <shell>`: a script that completes commands, flags and flag values (files elsewhere).
export function completionScript(shell: Shell, commands: readonly CliCommand[]): string {
  const rows = table(commands);
  const names = rows.map((r) => r.name).join(' ');
  if (shell === 'bash') {
    const cases = rows.map((r) => `    ${r.name}) flags="${r.flags.join(' ')}" ;;`).join('\n');
    const values = rows
      .flatMap((r) =>
        r.choices.map(
          ([flag, words]) =>
            `    ${r.name}:${flag}) COMPREPLY=($(compgen -W "${words.join(' ')}" -- "$cur")); return ;;`,
        ),
      )
      .join('\n');
    return `# ptc completion for bash: eval "$(ptc completion bash)" (or save it in bash-completion's folder)
_ptc() {
  local cur prev cmd flags
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${names} --help --version" -- "$cur"))
    return
  fi
  if [ "$cmd" = completion ]; then COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return; fi
  case "$cmd:$prev" in
${values}
  esac
  case "$cmd" in
${cases}
    *) flags="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _ptc ptc
`;
  }
  if (shell === 'zsh') {
    const cases = rows.map((r) => `    ${r.name}) flags=(${r.flags.join(' ')}) ;;`).join('\n');
    const values = rows
      .flatMap((r) =>
        r.choices.map(([flag, words]) => `    ${r.name}:${flag}) compadd -- ${words.join(' ')}; return ;;`),
      )
      .join('\n');
    return `#compdef ptc
# ptc completion for zsh: eval "$(ptc completion zsh)" (after compinit), or save as _ptc on your $fpath
_ptc() {
  local cmd=\${words[2]} prev=\${words[CURRENT-1]}
  local -a flags
  if (( CURRENT == 2 )); then
    compadd -- ${names} --help --version
    return
  fi
  if [[ $cmd == completion ]]; then compadd -- bash zsh fish; return; fi
  case "$cmd:$prev" in
${values}
  esac
  case "$cmd" in
${cases}
  esac
  if [[ $PREFIX == -* ]]; then compadd -- $flags; else _files; fi
}
compdef _ptc ptc
`;
  }
  const lines = [
    '# ptc completion for fish: ptc completion fish > ~/.config/fish/completions/ptc.fish',
    'complete -c ptc -f',
    `complete -c ptc -n __fish_use_subcommand -a "${names}"`,
    'complete -c ptc -n __fish_use_subcommand -l help -l version',
    'complete -c ptc -n "__fish_seen_subcommand_from completion" -a "bash zsh fish"',
  ];
  for (const c of commands) {
    for (const [name, flag] of shownFlags(c.flags)) {
      const short = flag.short === undefined ? '' : ` -s ${flag.short}`;
      const takes =
        flag.type === 'boolean' ? '' : flag.choices === undefined ? ' -r -F' : ` -x -a "${flag.choices.join(' ')}"`;
      lines.push(
        `complete -c ptc -n "__fish_seen_subcommand_from ${c.name}" -l ${name}${short}${takes} -d ${JSON.stringify(flag.help.slice(0, 60))}`,
      );
    }
    lines.push(`complete -c ptc -n "__fish_seen_subcommand_from ${c.name}" -F`);
  }
  return `${lines.join('\n')}\n`;
}
