// What git's `-c name=value` options (and aliases a `git config alias.…` earlier in the line
// defines) make it run, for deny rules (bash-deny.ts): an alias
// (`git -c alias.p=push p` is `git push`; `git -c alias.x='!rm -rf x' x` runs `rm -rf x` in a
// shell) and the settings whose value is a command (`core.fsmonitor`, `core.pager`,
// `core.sshCommand`, …). Every value is read as a command line too: a deny rule stays on the
// safe side, and a value that is not a command rarely looks like a denied one.
import type { DenyWord } from "./bash-deny-match.js";

export interface GitConfigRuns {
  /** Setting values, each read as a shell command line (a `!` alias without its `!`). */
  lines: string[];
  /** The command as git runs it with a non-shell alias put in: `git push origin main`. */
  expanded: DenyWord[][];
}

/**
 * Reads the global options before git's subcommand; `args` are the words after `git`.
 * `lineAliases` are the aliases a `git config alias.…` of the same line defines.
 */
export function gitConfigRuns(
  args: DenyWord[],
  lineAliases: ReadonlyMap<string, string> = new Map(),
): GitConfigRuns {
  const settings = [...lineAliases].map(([name, value]) => `alias.${name}=${value}`);
  let i = 0;
  while (i < args.length && args[i].value.startsWith("-") && args[i].value !== "--") {
    const option = args[i].value;
    if (option === "-c" && i + 1 < args.length) {
      settings.push(args[i + 1].value);
      i += 2;
      continue;
    }
    if (option.startsWith("-c") && option.length > 2 && !option.startsWith("--"))
      settings.push(option.slice(2));
    // Options that take the next word as their value (`-C dir`, `--git-dir dir`).
    i += /^(-C|--git-dir|--work-tree|--namespace|--exec-path|--super-prefix|--config-env)$/.test(option)
      ? 2
      : 1;
  }
  const sub = args[i]?.value;
  const rest = args.slice(i + 1);
  const out: GitConfigRuns = { lines: [], expanded: [] };
  for (const setting of settings) {
    const eq = setting.indexOf("=");
    if (eq < 0) continue;
    const key = setting.slice(0, eq).toLowerCase();
    const value = setting.slice(eq + 1);
    out.lines.push(value.replace(/^!/, ""));
    if (!key.startsWith("alias.") || sub === undefined || key.slice("alias.".length) !== sub.toLowerCase())
      continue;
    if (value.startsWith("!")) out.lines.push([value.slice(1), ...rest.map((w) => w.value)].join(" "));
    else {
      const words = value.split(/\s+/).filter((v) => v !== "");
      out.expanded.push([...words.map((v) => ({ value: v, unknown: false, globs: false })), ...rest]);
    }
  }
  return out;
}
