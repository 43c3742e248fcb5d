// The programs a deny rule looks through (bash-deny.ts): wrappers that run their arguments as a
// command, shells and builtins that run text, and the reserved words that only steer the
// command right after them.

/** Programs that run their remaining arguments (after their own options) as a command. */
export const WRAPPERS = new Set([
  "sudo",
  "doas",
  "pkexec",
  "run0",
  "env",
  "nice",
  "ionice",
  "timeout",
  "command",
  "builtin",
  "exec",
  "xargs",
  "nohup",
  "time",
  "stdbuf",
  "setsid",
  "chroot",
  "unshare",
  "nsenter",
  "prlimit",
  "cgexec",
  "numactl",
  "taskset",
  "chrt",
  "unbuffer",
  "flock",
  "strace",
  "ltrace",
  "parallel",
  "busybox",
  "caffeinate",
  "systemd-run",
  "firejail",
  "bwrap",
  "torsocks",
  "proxychains",
  "proxychains4",
  "catchsegv",
  "valgrind",
  "fakeroot",
  "eatmydata",
  "chronic",
  "ifne",
  "dbus-run-session",
  "xvfb-run",
  "aa-exec",
  "sg",
  "coproc",
  "ssh",
  "watch",
  "su",
  "runuser",
  // Terminal multiplexers start the command they are given, detached (`screen -dm rm -rf x`).
  "screen",
  "tmux",
]);

/** Wrappers whose command follows one positional argument (`chroot DIR cmd`, `ssh HOST cmd`). */
export const POSITIONAL_WRAPPERS = new Set([
  "chroot",
  "flock",
  "ssh",
  "sg",
  "su",
  "runuser",
  "taskset",
  "chrt",
]);

/** Reserved words that steer the command right after them (`then rm …`, `! rm …`). */
export const KEYWORDS = new Set(["!", "{", "if", "then", "elif", "else", "while", "until", "do"]);

/** Shells whose non-option arguments (the `-c` string) are command lines themselves. */
export const SHELLS = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "fish",
  "tcsh",
  "csh",
  "rbash",
  // They read a command line from their input later (`at now <<< 'rm -rf x'`).
  "at",
  "batch",
]);
/** Programs whose arguments, joined by spaces, are one command line. */
export const STRING_RUNNERS = new Set([
  "eval",
  "watch",
  "su",
  "runuser",
  "script",
  "ssh",
  "alias",
  "trap",
  "tmux",
]);
/** Builtins that run text as commands. */
export const EVALUATORS = new Set(["eval", "source", "."]);
export const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** Interpreters whose code argument may hand strings to a shell (`system`, `os.system`, …). */
export const SCRIPT_RUNNERS = new Set([
  "python",
  "python3",
  "python2",
  "perl",
  "ruby",
  "node",
  "nodejs",
  "deno",
  "bun",
  "php",
  "lua",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "tclsh",
  "osascript",
]);

/**
 * Whether `always` for this program and first argument would cover far more than the command
 * approved: wrappers, shells and evaluators run whatever follows, and an interpreter's (or git's)
 * leading option may carry code (`python3 -c`, `node -e`, `git -c core.pager=…`).
 */
export function grantTooWide(program: string, firstArg: string | undefined): boolean {
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (WRAPPERS.has(name) || SHELLS.has(name) || STRING_RUNNERS.has(name) || EVALUATORS.has(name)) return true;
  if (name === "function") return true;
  const option = firstArg?.startsWith("-") ?? false;
  return option && (SCRIPT_RUNNERS.has(name.replace(/[0-9.]+$/, "")) || name === "git");
}
