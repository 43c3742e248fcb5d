// How far an `always` grant of a bash command reaches (R-TOOL-2: the program and its first
// argument, never all of bash). Some programs run code their arguments carry: a grant of
// `find . -name '*.ts'` must not cover `find . -exec sh -c '…' \;`, nor `sed -i s/a/b/ f` cover
// `sed -i '1e touch P' f`. For those, `always` covers that very command again, word for word.

/** Programs whose script argument can run commands or write files (sed's `e`/`w`, awk's `system`). */
const SCRIPTED = new Set([
  "sed",
  "gsed",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "busybox",
  "tmux",
  "screen",
  "gdb",
  "expect",
  "at",
  "batch",
]);
/** Editors and pagers whose options run commands (`vim -c ':!…'`, `less +!…`). */
const COMMAND_OPTION_EDITORS = new Set([
  "vi",
  "vim",
  "nvim",
  "view",
  "ex",
  "emacs",
  "nano",
  "less",
  "more",
  "man",
]);

const FIND_RUNS = /^-(exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls|delete)$/;
const TAR_RUNS =
  /^--(checkpoint-action|to-command|use-compress-program|info-script|new-volume-script|rsh-command|rmt-command)(=|$)/;
const RSYNC_RUNS = /^(-e|--rsh|--rsync-path)(=|$)|^-[A-Za-z]*e/;
const MAKE_RUNS = /^(SHELL|\.SHELLFLAGS|MAKESHELL)=|^(--eval|-f|--file|--makefile|-E)(=|$)/;
const NPM_RUNS = /^(--script-shell|--shell|-c|--call)(=|$)|^(exec|x|dlx)$/;
const ZIP_RUNS = /^(-TT|--unzip-command)(=|$)/;
/** git options and subcommands that run a command they are given. */
const GIT_RUNS =
  /^(-c|--config-env|--exec-path|-O|--open-files-in-pager|--upload-pack|--receive-pack|--exec|-x|--extcmd|--tool|--tree-filter|--index-filter|--msg-filter|--commit-filter|--env-filter|--parent-filter|--tag-name-filter)(=|$)|^-c.|^-O.|^(foreach|run)$/;

/** Whether an `always` grant for this command may cover only the command itself, word for word. */
export function grantIsExact(program: string, args: string[]): boolean {
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (SCRIPTED.has(name)) return true;
  if (COMMAND_OPTION_EDITORS.has(name)) return args.some((a) => a.startsWith("-") || a.startsWith("+"));
  switch (name) {
    case "find":
      return args.some((a) => FIND_RUNS.test(a));
    case "tar":
      // `-I prog`, `-F script` and the same letters in a bundle (`-xIf`, old-style `xIf`).
      return args.some(
        (a, i) => TAR_RUNS.test(a) || /^-[A-Za-z]*[IF]/.test(a) || (i === 0 && /^[A-Za-z]*[IF]/.test(a)),
      );
    case "rsync":
      return args.some((a) => RSYNC_RUNS.test(a));
    case "make":
    case "gmake":
      return args.some((a) => MAKE_RUNS.test(a));
    case "npm":
    case "pnpm":
    case "yarn":
    case "npx":
    case "pnpx":
    case "bunx":
      return args.some((a) => NPM_RUNS.test(a));
    case "zip":
      return args.some((a) => ZIP_RUNS.test(a));
    case "git":
      return args.some((a) => GIT_RUNS.test(a)) || gitFetchesWithCommand(args);
    default:
      return false;
  }
}

/** `git clone -u 'cmd'`, `git fetch -u …`: `-u` names the upload-pack command there (elsewhere it is `add -u`). */
function gitFetchesWithCommand(args: string[]): boolean {
  const sub = args.find((a) => !a.startsWith("-"));
  return (sub === "clone" || sub === "fetch" || sub === "pull" || sub === "ls-remote") && args.includes("-u");
}
