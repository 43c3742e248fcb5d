// `tern worktrees` and `tern worktrees remove <name> [--force]` (R-WT-1).
import { sessionsOf } from "../workspace/session-queries.js";
import {
  listWorktrees,
  type RepoPlace,
  removeWorktree,
  repoPlace,
  WorktreeError,
} from "../worktrees/index.js";
import { ternHome } from "./setup.js";
import { formatTable } from "./table.js";
import { UsageError } from "./usage-error.js";
import { jsonText } from "../vocab/json-text.js";

async function place() {
  try {
    return await repoPlace(process.cwd());
  } catch (err) {
    if (err instanceof WorktreeError) throw new UsageError(`worktrees: ${err.message}`);
    throw err;
  }
}

/** Each worktree with its newest session. */
async function worktreeRows(where: RepoPlace) {
  const rows = await listWorktrees(where);
  return rows.map((w) => ({ ...w, session: sessionsOf(ternHome(), w.path)[0]?.id ?? "" }));
}

export async function worktreesCommand(opts: { json?: boolean }): Promise<number> {
  const rows = await worktreeRows(await place());
  if (opts.json) {
    process.stdout.write(`${jsonText(rows)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write("no tern worktrees in this repository (tern --worktree makes one)\n");
    return 0;
  }
  process.stdout.write(
    formatTable(
      ["name", "branch", "changed", "commits", "session", "path"],
      rows.map((w) => [w.name, w.branch, String(w.changed), String(w.commits), w.session || "-", w.path]),
    ),
  );
  return 0;
}

export async function worktreeRemoveCommand(name: string, opts: { force?: boolean }): Promise<number> {
  const where = await place();
  try {
    process.stdout.write(`${await removeWorktree(where, name, { force: opts.force === true })}\n`);
    return 0;
  } catch (err) {
    if (err instanceof WorktreeError) throw new UsageError(err.message);
    throw err;
  }
}
