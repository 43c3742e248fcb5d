// Output redirections are writes (R-TOOL-2, §10). `targetConcern` judges one redirect's path for
// both readers: the literal gate (policy/literal-redirects.ts), which decides what allow rules
// and grants cover, and `redirectConcerns` here, the bash reader's best-effort guard for a line
// a bare `bash` rule lets run (it covers every command; this only makes some ask): a redirect
// to a path outside, to `/dev/tcp|udp`, or to a path known only when the command runs
// (`> $F`, `> *.txt`, a relative path after `cd`) asks, naming the path.
import { lstatSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { hasBraces } from "./brace-expand.js";
import { isInside, isProtectedPath, realPathLoose } from "../paths.js";
import type { ShellParse, ShellRedirect } from "./shell-parse.js";

/**
 * Why a redirect to `path` (as bash would open it from `cwd`) is not covered, or null when it
 * is: the network, /proc, a place outside the workspace or inside its `.git/` / `.tern/`, and
 * for a write, a file with more than one hard link.
 */
export function targetConcern(
  path: string,
  cwd: string,
  realCwd: string,
  verb: "writes" | "reads",
): string | null {
  const abs = resolve(cwd, path);
  if (NETWORK.test(abs)) return `redirects to the network: ${abs}`;
  if (HARMLESS.test(abs)) return null;
  if (PER_PROCESS.test(abs))
    return `redirects into /proc, which names the shell's own folders and files: ${abs}`;
  // The kernel, not path arithmetic, decides where `link/../x` lands.
  const real = realPathLoose(isAbsolute(path) ? path : `${cwd}/${path}`);
  const via = real === abs ? "" : ` (really ${real})`;
  if (!isInside(realCwd, real)) return `${verb} outside the workspace: ${abs}${via}`;
  if (isProtectedPath(realCwd, real)) return `${verb} into a protected folder: ${abs}${via}`;
  if (verb === "writes" && linkCount(real) > 1)
    return `writes a file with several hard links (it may be outside too): ${abs}`;
  return null;
}

/** How many names a regular file has (1 for anything else, or when it cannot be read). */
export function linkCount(path: string): number {
  try {
    const st = statSync(path);
    return st.isFile() ? st.nlink : 1;
  } catch {
    return 1;
  }
}

const OUTPUT_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
/** Harmless targets: the bit bucket and the command's own standard streams. */
const HARMLESS = /^\/dev\/(null|stdin|stdout|stderr)$/;
const NETWORK = /^\/dev\/(tcp|udp)(\/|$)/;
const CHANGES_DIR = new Set(["cd", "pushd", "popd"]);
/** Paths the kernel resolves per process (`/proc/self/cwd` is bash's folder, not tern's). */
const PER_PROCESS = /^\/proc(\/|$)/;

function exists(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

function writesTo(r: ShellRedirect): boolean {
  if (OUTPUT_OPS.has(r.op)) return true;
  // `>&2`, `2>&1`, `>&-` duplicate or close a descriptor; `>&file` writes the file.
  return r.op === ">&" && !/^\d*-?$/.test(r.target.value);
}

/** Why each output redirect of the line is not covered by a rule; empty when all are. */
export function redirectConcerns(parsed: ShellParse, cwd: string, realCwd: string): string[] {
  // Anywhere in a command, not only first: `{ cd ..; …; }`, `if cd ..; then`, `! cd ..`,
  // `builtin cd ..` and a function's body all change the folder (`echo cd` asks too: rare).
  const movesDir = parsed.commands.some((c) => c.words.some((w) => CHANGES_DIR.has(w.value)));
  const out: string[] = [];
  for (const cmd of parsed.commands) {
    for (const r of cmd.redirects) {
      // Opening /dev/tcp or /dev/udp connects, whichever way the data flows.
      const literal = r.body === undefined ? resolve(cwd, r.target.value) : "";
      if (NETWORK.test(literal)) {
        out.push(`redirects to the network: ${literal}`);
        continue;
      }
      if (!writesTo(r)) continue;
      const target = r.target;
      const shown = target.value;
      // `> .{g..g}it/hooks/x` is `> .git/hooks/x`: bash brace-expands a redirect's target too.
      if (target.expands || target.globs || hasBraces(target)) {
        out.push(`redirects output to a path known only when it runs: ${shown}`);
        continue;
      }
      let path = shown;
      if (target.unquoted[0] && (path === "~" || path.startsWith("~/"))) path = homedir() + path.slice(1);
      else if (target.unquoted[0] && path.startsWith("~")) {
        out.push(`redirects output to another user's home: ${shown}`);
        continue;
      }
      if (!isAbsolute(path) && movesDir) {
        out.push(`redirects output to a relative path after changing folder: ${shown}`);
        continue;
      }
      const concern = targetConcern(path, cwd, realCwd, "writes");
      if (concern) out.push(concern);
      // Another command of the line may create it first, as a symlink to anywhere.
      else if (parsed.commands.length > 1 && !exists(resolve(cwd, path)))
        out.push(
          `redirects output to a path another command of the line may create first: ${resolve(cwd, path)}`,
        );
    }
  }
  return out;
}
