// Output redirections are writes (R-TOOL-2): an allow rule or a grant covers a bash command
// only while its redirects stay inside the workspace (outside `.git/` and `.tern/`, §10). A
// redirect to a path outside, to `/dev/tcp|udp`, or to a path known only when the command
// runs (`> $F`, `> *.txt`, a relative path after `cd`) asks, naming the path.
import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { hasBraces } from "./brace-expand.js";
import { isInside, isProtectedPath, realPathLoose } from "../paths.js";
import type { ShellParse, ShellRedirect } from "./shell-parse.js";

const OUTPUT_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
/** Harmless write targets: the bit bucket and the command's own standard streams. */
const HARMLESS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
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
      const abs = resolve(cwd, path);
      if (HARMLESS.test(abs)) continue;
      if (PER_PROCESS.test(abs)) {
        out.push(`redirects output into /proc, which names the shell's own folders and files: ${abs}`);
        continue;
      }
      // The kernel, not path arithmetic, decides where `link/../x` lands.
      const real = realPathLoose(isAbsolute(path) ? path : `${cwd}/${path}`);
      if (!isInside(realCwd, real)) out.push(`writes outside the workspace: ${abs}`);
      else if (isProtectedPath(realCwd, real)) out.push(`writes into a protected folder: ${abs}`);
      // Another command of the line may create it first, as a symlink to anywhere.
      else if (parsed.commands.length > 1 && !exists(abs))
        out.push(`redirects output to a path another command of the line may create first: ${abs}`);
    }
  }
  return out;
}
