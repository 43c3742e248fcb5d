// R-WF-1 for `bash`: the places a shell command names, so a subfolder's instruction file joins
// when the model works there through the shell too (`cd packages/api && npm test`,
// `sed -n 1,20p packages/api/src/server.ts`). A cheap word scan, not a shell parser: `cd` /
// `pushd` targets (later relative words resolve against them), `-C` / `--prefix` values, and
// literal words that look like paths (they hold a `/`, or name a folder that exists: `ls api`);
// words built at run time (`$VAR`, `~`, backticks) are skipped, a glob counts up to its last
// fixed folder. Bounded: the first 4 KB of the command, 16 paths at most.
import { isAbsolute, resolve } from "node:path";
import { isFolder } from "../prompt/instructions.js";

const MAX_CHARS = 4096;
const MAX_PATHS = 16;
const CHANGES_DIR = new Set(["cd", "pushd"]);
/** Options whose value is the folder a tool works in (`git -C api`, `npm --prefix web`). */
const NAMES_DIR = new Set(["-C", "--prefix", "--cwd", "--dir", "--directory"]);

/** A word as the literal path it names, or undefined when it is not one. */
function literalPath(raw: string): string | undefined {
  let word = raw.replace(/^['"]|['"]$/g, "");
  if (word.startsWith("-")) {
    const eq = word.indexOf("=");
    if (eq < 0) return undefined;
    word = word.slice(eq + 1);
  }
  if (!word || /[$`~\\]/.test(word) || word.includes("://")) return undefined;
  const glob = word.search(/[*?[{]/);
  if (glob >= 0) word = word.slice(0, word.lastIndexOf("/", glob) + 1);
  return word || undefined;
}

/** Absolute paths a command names (outside the workspace too: the caller keeps those under it). */
export function commandPaths(cwd: string, command: string): string[] {
  const out: string[] = [];
  let dir = cwd;
  let previous = "";
  for (const raw of command.slice(0, MAX_CHARS).split(/[\s;&|()<>]+/)) {
    if (out.length >= MAX_PATHS) break;
    const changesDir = CHANGES_DIR.has(previous);
    const namesDir = changesDir || NAMES_DIR.has(previous);
    previous = raw;
    const word = literalPath(raw);
    if (!word) continue;
    const abs = isAbsolute(word) ? resolve(word) : resolve(dir, word);
    if (!namesDir && !word.includes("/") && !isFolder(abs)) continue;
    if (changesDir) dir = abs;
    out.push(abs);
  }
  return out;
}
