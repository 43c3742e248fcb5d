// `--worktree [name]` (R-WT-1): the session runs in a new git worktree on branch `tern/<name>`,
// its cwd, tools, checkpoints, instruction files and hooks all there, because the process works
// from there. At the end an unchanged worktree goes with its branch; a changed one is kept and
// named. `--resume <id>` of a session that ran in a worktree returns to it.
import { existsSync } from "node:fs";
import { sessionCwdOf } from "../workspace/session-queries.js";
import { createWorktree, finishWorktree, isInTernWorktree, WorktreeError } from "../worktrees/index.js";
import type { CommonOptions } from "./options.js";
import { ternHome } from "./setup.js";
import { UsageError } from "./usage-error.js";

/** Runs `body` in the worktree the options ask for (or return to); other runs pass straight through. */
export async function inWorktree(opts: CommonOptions, body: () => Promise<number>): Promise<number> {
  if (opts.worktree === undefined) {
    returnToWorktree(opts);
    return body();
  }
  if (opts.continue || opts.resume !== undefined)
    throw new UsageError(
      "--worktree starts a new session; --resume returns to a session's worktree by itself",
    );
  let made: Awaited<ReturnType<typeof createWorktree>>;
  try {
    made = await createWorktree({
      cwd: process.cwd(),
      name: typeof opts.worktree === "string" ? opts.worktree : undefined,
    });
  } catch (err) {
    if (err instanceof WorktreeError) throw new UsageError(`--worktree: ${err.message}`);
    throw err;
  }
  const copied = made.included.length > 0 ? `; copied ${made.included.join(", ")}` : "";
  process.stderr.write(`tern: working in worktree ${made.path} (branch ${made.branch}${copied})\n`);
  const back = process.cwd();
  process.chdir(made.cwd);
  try {
    return await body();
  } finally {
    process.chdir(back);
    const end = await finishWorktree(made.place, made.name).catch((err: Error) => ({
      removed: false,
      message: `worktree kept: ${made.path} (branch ${made.branch}; ${err.message})`,
    }));
    if (!end.removed) process.stderr.write(`tern: ${end.message}\n`);
  }
}

/** A resumed session that ran in a tern worktree runs there again, while that worktree exists. */
function returnToWorktree(opts: CommonOptions): void {
  if (typeof opts.resume !== "string" || !opts.resume.trim()) return;
  let cwd: string | undefined;
  try {
    cwd = sessionCwdOf(ternHome(), opts.resume.trim());
  } catch {
    return; // an unknown or ambiguous id is the resume's own error to report
  }
  if (!cwd || cwd === process.cwd() || !isInTernWorktree(cwd)) return;
  if (!existsSync(cwd)) {
    process.stderr.write(
      `tern: session ${opts.resume} ran in worktree ${cwd}, which is gone; resuming here\n`,
    );
    return;
  }
  process.chdir(cwd);
  process.stderr.write(`tern: resuming in worktree ${cwd}\n`);
}
