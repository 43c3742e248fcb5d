// What a plainly literal line (literal-line.ts) touches that no rule covers (R-TOOL-2, §10): a
// file redirect is covered only when its literal path lies inside the workspace, outside its
// `.git/` and `.tern/` and outside TERN_HOME (also when TERN_HOME lies inside the workspace). A
// write is covered only on the line's first command, alone in its pipeline: any command that runs
// before or beside it could first turn the target into a symlink to anywhere (`ln -sf ../x f;
// echo > f`). A relative read after `cd` names another folder's file. A word naming a path in
// TERN_HOME (`cat /home/u/.tern/config.json`) or inside `.git/`/`.tern/` (`cp x .git/hooks/y`)
// may be the program's read or write of it: that asks too.
import { statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { isInside, isProtectedPath, realPathLoose } from "../paths.js";
import type { LiteralCommand } from "./literal-line.js";

/** Why the line's redirects and words are not covered by a rule; empty when they all are. */
export function literalRedirectConcerns(
  commands: LiteralCommand[],
  cwd: string,
  realCwd: string,
  realTernHome?: string,
): string[] {
  const out: string[] = [];
  const firstCd = commands.findIndex((c) => c.words[0] === "cd");
  commands.forEach((cmd, k) => {
    const alone = commands.every((other, j) => j === k || other.pipeline !== cmd.pipeline);
    for (const r of cmd.redirects) {
      if (r.op === "dup") continue;
      const writes = r.op !== "<";
      if (writes && (k > 0 || !alone)) {
        out.push(`redirects output from a command that others of the line run before or beside: ${r.target}`);
        continue;
      }
      if (!writes && firstCd >= 0 && firstCd < k && !isAbsolute(r.target)) {
        out.push(`reads a relative path after changing folder: ${r.target}`);
        continue;
      }
      const concern = targetConcern(r.target, cwd, realCwd, writes ? "writes" : "reads", realTernHome);
      if (concern) out.push(concern);
    }
  });
  out.push(...namedPathWords(commands, cwd, realCwd, realTernHome));
  return out;
}

/**
 * Why a redirect to `path` (as bash would open it from `cwd`) is not covered, or null when it
 * is: the network, /proc, TERN_HOME, a place outside the workspace or inside its `.git/` /
 * `.tern/`, and for a write, a file with more than one hard link.
 */
function targetConcern(
  path: string,
  cwd: string,
  realCwd: string,
  verb: "writes" | "reads",
  realTernHome: string | undefined,
): string | null {
  const abs = resolve(cwd, path);
  if (NETWORK.test(abs)) return `redirects to the network: ${abs}`;
  if (HARMLESS.test(abs)) return null;
  if (PER_PROCESS.test(abs))
    return `redirects into /proc, which names the shell's own folders and files: ${abs}`;
  // The kernel, not path arithmetic, decides where `link/../x` lands.
  const real = realPathLoose(isAbsolute(path) ? path : `${cwd}/${path}`);
  const via = real === abs ? "" : ` (really ${real})`;
  if (realTernHome && isInside(realTernHome, real))
    return `${verb} TERN_HOME, tern's own settings and keys: ${abs}${via}`;
  if (!isInside(realCwd, real)) return `${verb} outside the workspace: ${abs}${via}`;
  if (isProtectedPath(realCwd, real)) return `${verb} into a protected folder: ${abs}${via}`;
  if (verb === "writes" && linkCount(real) > 1)
    return `writes a file with several hard links (it may be outside too): ${abs}`;
  return null;
}

/**
 * Words that name a path in TERN_HOME or below a `.git/` or `.tern/` of the workspace (`cp x
 * .git/hooks/pre-commit`: a write there is code execution; the folder itself, as in
 * `--exclude-dir=.git`, is fine), whole or after an `=`, resolved from each folder the command may
 * run in: the workspace, and after a literal `cd` that folder too (a `cd` that fails leaves the
 * shell where it was; CDPATH may lead a relative one elsewhere). After a `cd` to a folder known
 * only when it runs (`cd -`), no relative word can be judged. A workspace inside TERN_HOME would
 * make every word a TERN_HOME path: its writes ask, its words are not judged for TERN_HOME.
 */
function namedPathWords(
  commands: LiteralCommand[],
  cwd: string,
  realCwd: string,
  realTernHome?: string,
): string[] {
  const home = realTernHome && !isInside(realTernHome, realCwd) ? realTernHome : undefined;
  const concernOf = (abs: string): string | null => {
    for (const p of [abs, realPathLoose(abs)]) {
      if (home && isInside(home, p)) return "names a path in TERN_HOME, tern's own settings and keys";
      if (belowProtected(realCwd, p))
        return "names a path inside the workspace's .git/ or .tern/ (a write there is code execution)";
    }
    return null;
  };
  const out: string[] = [];
  let folders: string[] | null = [cwd];
  for (const { words } of commands) {
    for (const w of words.slice(1)) {
      const paths = w.includes("=") ? [w, w.slice(w.indexOf("=") + 1)] : [w];
      if (folders === null && paths.some((p) => !isAbsolute(p))) {
        out.push(`names a relative path after \`cd\` to a folder known only when it runs: ${w}`);
        continue;
      }
      const why = paths.flatMap((p) => (folders ?? [cwd]).map((f) => concernOf(resolve(f, p)))).find(Boolean);
      if (why) out.push(`${why}: ${w}`);
      else {
        const outside = optionValueOutside(w, folders ?? [cwd], realCwd);
        if (outside) out.push(outside);
      }
    }
    if (words[0] === "cd") folders = folders && foldersAfterCd(folders, words.slice(1));
  }
  return out;
}

/**
 * An option word `--name=VALUE` (or `-n=VALUE`) whose literal value is a path leading outside the
 * workspace (§10: `git log --output=../outside/x` under `bash(git log*)`): the program may write
 * there, so the line asks, naming the real place. Only the word as written is judged; what the
 * program does with its options is not emulated. A value that resolves inside (`--format=%H`,
 * `--since=2.weeks`) is no path worth asking about.
 */
function optionValueOutside(word: string, folders: string[], realCwd: string): string | null {
  const eq = word.indexOf("=");
  if (!/^--?[A-Za-z]/.test(word) || eq < 0) return null;
  const value = word.slice(eq + 1);
  if (!value || HARMLESS.test(value)) return null;
  for (const folder of folders) {
    const abs = resolve(folder, value);
    const real = realPathLoose(abs);
    if (!isInside(realCwd, real))
      return `names a path outside the workspace in an option: ${word} (${real === abs ? abs : `really ${real}`})`;
  }
  return null;
}

/**
 * Whether `abs` lies strictly below a `.git` or `.tern` folder of the workspace (at any depth):
 * its folder is, or is inside, a protected one.
 */
function belowProtected(realCwd: string, abs: string): boolean {
  return isProtectedPath(realCwd, dirname(abs));
}

/** The folders a shell may be in after `cd args` from one of `folders`; null when unknown. */
function foldersAfterCd(folders: string[], args: string[]): string[] | null {
  const end = args.indexOf("--");
  const target = end >= 0 ? args[end + 1] : args.find((a) => !/^-[LPe@]+$/.test(a));
  const home = process.env.HOME;
  if (target === "-" || (target === undefined && !home)) return null;
  const to = target ?? home!;
  const bases = [...folders];
  // CDPATH applies to a relative name not starting with `.` or `..`.
  if (!/^\.\.?(\/|$)/.test(to) && !isAbsolute(to))
    for (const entry of (process.env.CDPATH ?? "").split(":"))
      if (entry) bases.push(resolve(folders[0], entry));
  const next = [...new Set([...folders, ...bases.map((b) => resolve(b, to))])];
  return next.length > 32 ? null : next;
}

/** How many names a regular file has (1 for anything else, or when it cannot be read). */
function linkCount(path: string): number {
  try {
    const st = statSync(path);
    return st.isFile() ? st.nlink : 1;
  } catch {
    return 1;
  }
}

/** Harmless targets: the bit bucket and the command's own standard streams. */
const HARMLESS = /^\/dev\/(null|stdin|stdout|stderr)$/;
const NETWORK = /^\/dev\/(tcp|udp)(\/|$)/;
/** Paths the kernel resolves per process (`/proc/self/cwd` is bash's folder, not tern's). */
const PER_PROCESS = /^\/proc(\/|$)/;
