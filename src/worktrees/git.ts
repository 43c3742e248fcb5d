// Running the user's git on the user's repository (unlike checkpoint/, which keeps to its shadow):
// worktrees are the user-visible half, branches a person reviews, merges or throws away. The
// caller's GIT_DIR / GIT_WORK_TREE never apply (they would redirect us into another repository),
// and hooks do not run for the commits tern makes on a sub-agent's branch.
import { execFile } from "node:child_process";
import { programPath } from "../programs/program-path.js";

export class WorktreeError extends Error {
  override name = "WorktreeError";
}

export interface GitOptions {
  /** The git program (an absolute path when the caller resolved one). */
  git?: string;
  input?: string;
}

const SCRUBBED = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"];

function gitEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of SCRUBBED) delete env[name];
  return env;
}

/** Runs git in `cwd`; rejects with a WorktreeError carrying git's own first line of complaint. */
export function git(cwd: string, args: readonly string[], opts: GitOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    // The git on an absolute PATH entry outside the repository, never one it ships (§10).
    const program = opts.git ?? programPath("git", { workspaces: [cwd] });
    if (!program) return reject(new WorktreeError("git is not installed (no git on an absolute PATH entry)"));
    const child = execFile(
      program,
      ["-c", "core.hooksPath=/dev/null", ...args],
      { cwd, env: gitEnv(), maxBuffer: 256 * 1024 * 1024, encoding: "utf8" },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const said =
          (stderr || err.message)
            .trim()
            .split("\n")
            .find((l) => l.trim()) ?? "";
        const verb = args.find((a, i) => !a.startsWith("-") && args[i - 1] !== "-c") ?? "";
        reject(new WorktreeError(`git ${verb}: ${said.replace(/^(fatal|error): /, "")}`));
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** The repository's top folder, or undefined outside a git work tree. */
export async function repoRoot(cwd: string, opts: GitOptions = {}): Promise<string | undefined> {
  try {
    return (await git(cwd, ["rev-parse", "--show-toplevel"], opts)).trim() || undefined;
  } catch {
    return undefined;
  }
}
