// Taking back what turns did to the files (R-CKPT-2/3): undo restores the snapshot taken before
// the last N live turns and withdraws them from the model context; redo puts back the newest undo;
// diff shows what the session or one turn changed. Shared by `tern undo|redo|diff` and the session.
import { UndoError } from "./undo-error.js";
import { shownPath } from "../../checkpoint/empty-folders.js";
import { type RestoredPath, restoreTree } from "../../checkpoint/restore.js";
import type { ShadowRepo } from "../../checkpoint/shadow-repo.js";
import type { NewRecord, RecordLine } from "../../record/types.js";
import { newestTree } from "./checkpoints.js";
import { undoHistory } from "../../record/undo-history.js";
import type { UndoReport } from "../door/commands.js";

export { UndoError } from "./undo-error.js";
export type { UndoReport } from "../door/commands.js";

/**
 * The files as they were before `turn`. A "before" snapshot is only taken for a turn that runs
 * tools, so the first one from `turn` on is it: turns before that one changed no file. When no
 * turn from `turn` on ran a tool, the newest snapshot is still the state to keep.
 */
function treeBefore(
  archive: readonly RecordLine[],
  turn: number,
): { tree: string | undefined; duringTools?: number } {
  for (const l of archive)
    if (l.type === "checkpoint" && l.turn >= turn && l.round === 0)
      return { tree: l.tree, duringTools: l.duringTools ? l.turn : undefined };
  return { tree: newestTree(archive) };
}

/** Snapshots the workspace now and refuses when it differs from the newest snapshot (unless forced). */
async function currentState(
  repo: ShadowRepo,
  archive: readonly RecordLine[],
  force: boolean,
): Promise<string> {
  const newest = newestTree(archive);
  if (!newest) throw new UndoError("this session has no checkpoints (they were off, or no turn ran yet)");
  const now = await repo.snapshot(newest, "before undo/redo");
  if (now !== newest && !force) {
    const changed = (await repo.treeChanges(newest, now)).map((c) => printable(shownPath(c.path)));
    const shown =
      changed.slice(0, 10).join(", ") + (changed.length > 10 ? ` and ${changed.length - 10} more` : "");
    throw new UndoError(
      `files changed since the session's last snapshot: ${shown} (use --force to restore anyway)`,
    );
  }
  return now;
}

export interface RecordAccess {
  archive: readonly RecordLine[];
  commit(record: NewRecord): void;
}

export async function undoTurns(
  repo: ShadowRepo,
  access: RecordAccess,
  opts: { turns: number; force: boolean },
): Promise<UndoReport> {
  const { live } = undoHistory(access.archive);
  if (live.length === 0) throw new UndoError("no turn to undo");
  if (opts.turns > live.length)
    throw new UndoError(`only ${live.length} turn${live.length === 1 ? "" : "s"} to undo`);
  const turns = live.slice(live.length - opts.turns);
  return restoreBefore(repo, access, turns[0], turns, opts.force);
}

/**
 * `/rewind N files`: the files go back to how they were after turn N (before turn N+1), also when
 * `/rewind` already withdrew the later turns from the context.
 */
export async function restoreAfterTurn(
  repo: ShadowRepo,
  access: RecordAccess,
  opts: { turn: number; force: boolean },
): Promise<UndoReport> {
  const from = opts.turn + 1;
  if (!access.archive.some((l) => l.type === "user_prompt" && l.turn >= from))
    throw new UndoError(`no turn ${from} to restore the files to before`);
  const turns = undoHistory(access.archive).live.filter((t) => t >= from);
  return restoreBefore(repo, access, from, turns.length > 0 ? turns : [from], opts.force);
}

/**
 * The files only (R-UI-29, Claude Code's "Restore code"): the files go back to how they were after
 * turn N (before turn N+1) and every turn stays in the context. Its `undo` line says `filesOnly`
 * and names the paths, so the next prompt's request tells the model (restored-files-note.ts), and
 * `redo` takes it back like any undo. The same refusals as undo (files changed since, unless forced).
 */
export async function restoreFilesOnly(
  repo: ShadowRepo,
  access: RecordAccess,
  opts: { turn: number; force: boolean },
): Promise<UndoReport> {
  if (!Number.isInteger(opts.turn) || opts.turn < 0) throw new UndoError(`no turn ${opts.turn}`);
  const from = opts.turn + 1;
  if (!access.archive.some((l) => l.type === "user_prompt" && l.turn >= from))
    throw new UndoError(`no turn ${from} to restore the files to before`);
  return restoreBefore(repo, access, from, [], opts.force, true);
}

/** The most paths a files-only `undo` line names (the notice says how many more). */
const NAMED_PATHS = 50;

/** Files back to the snapshot before turn `from`; `turns` (withdrawn from `from` on) is what the report names. */
async function restoreBefore(
  repo: ShadowRepo,
  access: RecordAccess,
  from: number,
  turns: number[],
  force: boolean,
  filesOnly = false,
): Promise<UndoReport> {
  const { tree: target, duringTools } = treeBefore(access.archive, from);
  if (!target || !(await repo.hasObject(target)))
    throw new UndoError(`no snapshot from before turn ${from} (checkpoints were off then)`);
  // R-CKPT-4: a big workspace's first snapshot ran beside turn N's tools, which wrote meanwhile.
  if (duringTools !== undefined && !force)
    throw new UndoError(
      `turn ${duringTools} changed files while the workspace's first snapshot was still being taken, so that snapshot may hold them as changed (use --force to restore it anyway)`,
    );
  const now = await currentState(repo, access.archive, force);
  const restored = await restoreTree(repo, now, target);
  const kept = filesOnly
    ? {
        filesOnly: true as const,
        paths: restored.slice(0, NAMED_PATHS).map((r) => r.path),
        pathCount: restored.length,
      }
    : {};
  access.commit({ type: "undo", toTurn: from - 1, tree: now, restored: target, ...kept });
  return { turns, restored };
}

export async function redoUndo(
  repo: ShadowRepo,
  access: RecordAccess,
  opts: { force: boolean },
): Promise<UndoReport> {
  const history = undoHistory(access.archive);
  const undo = history.undos.at(-1);
  if (!undo) throw new UndoError("nothing to redo (no undo since the last prompt)");
  const now = await currentState(repo, access.archive, opts.force);
  const restored = await restoreTree(repo, now, undo.tree);
  access.commit({
    type: "redo",
    restored: undo.tree,
    ...(undo.filesOnly ? { filesOnly: true as const } : {}),
  });
  const after = undoHistory(access.archive).live;
  return { turns: after.filter((t) => !history.live.includes(t)), restored };
}

/** A unified diff of what the session (or one turn) changed, between its snapshots. */
export async function diffTurns(
  repo: ShadowRepo,
  archive: readonly RecordLine[],
  opts: { turn?: number; color: boolean },
): Promise<string> {
  const checkpoints = archive.filter((l) => l.type === "checkpoint");
  const scoped = opts.turn === undefined ? checkpoints : checkpoints.filter((l) => l.turn === opts.turn);
  if (scoped.length === 0)
    throw new UndoError(
      opts.turn === undefined ? "this session has no checkpoints" : `no checkpoints for turn ${opts.turn}`,
    );
  const from = scoped[0].tree;
  const to = opts.turn === undefined ? (newestTree(archive) ?? from) : scoped[scoped.length - 1].tree;
  return repo.diff(from, to, opts.color);
}

/** One line per restored path, for the CLI and the UI. */
export function formatRestored(restored: readonly RestoredPath[]): string {
  if (restored.length === 0) return "no files needed restoring\n";
  const width = Math.max(...restored.map((r) => r.action.length));
  return restored.map((r) => `  ${r.action.padEnd(width)}  ${printable(r.path)}\n`).join("");
}

/** A path as one line: one holding a newline or another control character is shown quoted. */
function printable(path: string): string {
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}

/** Turns after `turn` whose tool batches may have changed files (a snapshot was taken after them). */
export function turnsThatWrote(archive: readonly RecordLine[], turn: number): number[] {
  const out = new Set<number>();
  for (const l of archive) if (l.type === "checkpoint" && l.turn > turn && l.round > 0) out.add(l.turn);
  return [...out];
}
