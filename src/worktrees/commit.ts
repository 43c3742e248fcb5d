// Commits tern makes on a worktree's own branch (a sub-agent's work, the parent's state it
// started from). The person's identity is used when git has one; otherwise tern's, so a machine
// without `user.email` still gets a branch to review rather than an error.
import { type GitOptions, git } from "./git.js";

async function identity(cwd: string, opts: GitOptions): Promise<string[]> {
  const email = await git(cwd, ["config", "user.email"], opts).catch(() => "");
  return email.trim() ? [] : ["-c", "user.name=tern", "-c", "user.email=tern@localhost"];
}

/** Stages everything in the worktree and commits it; the new commit, or undefined when clean. */
export async function commitAll(
  cwd: string,
  message: string,
  opts: GitOptions = {},
): Promise<string | undefined> {
  await git(cwd, ["add", "-A"], opts);
  const staged = await git(cwd, ["diff", "--cached", "--name-only", "-z"], opts);
  if (!staged) return undefined;
  await git(cwd, [...(await identity(cwd, opts)), "commit", "--quiet", "--no-verify", "-m", message], opts);
  return (await git(cwd, ["rev-parse", "HEAD"], opts)).trim();
}
