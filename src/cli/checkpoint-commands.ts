// `tern undo`, `tern redo`, `tern diff`: take back what a session's turns did to the files.
import { SessionNotFoundError } from "../engine/door/errors.js";
import {
  diffCommand as diffFiles,
  formatRestored,
  redoCommand as redoFiles,
  UndoError,
  type UndoReport,
  undoCommand as undoFiles,
} from "../workspace/offline-undo.js";
import { ternHome } from "./setup.js";
import { UsageError } from "./usage-error.js";

/** Refusals, unknown sessions and unreadable records are the user's to act on: one line, exit 2. */
async function userErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (
      err instanceof UndoError ||
      err instanceof SessionNotFoundError ||
      (err instanceof Error &&
        (err.name === "RecordError" || err.name === "CheckpointError" || err.name === "SessionLockedError"))
    )
      throw new UsageError(err.message);
    throw err;
  }
}

function positive(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag}: must be a positive integer, got '${value}'`);
  return n;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function printReport(verb: string, report: UndoReport): void {
  const turns = report.turns.join(", ");
  process.stdout.write(
    `${verb} ${plural(report.turns.length, "turn")} (${turns}); ${plural(report.restored.length, "path")} restored\n`,
  );
  process.stdout.write(formatRestored(report.restored));
}

export async function undoCommand(
  id: string | undefined,
  opts: { turns?: string; force?: boolean },
): Promise<number> {
  const turns = positive("--turns", opts.turns, 1);
  const report = await userErrors(() =>
    undoFiles({ home: ternHome(), cwd: process.cwd(), id }, { turns, force: opts.force === true }),
  );
  printReport("undid", report);
  process.stderr.write("the undone turns no longer reach the model; tern redo puts them back\n");
  return 0;
}

export async function redoCommand(id: string | undefined, opts: { force?: boolean }): Promise<number> {
  const report = await userErrors(() =>
    redoFiles({ home: ternHome(), cwd: process.cwd(), id }, { force: opts.force === true }),
  );
  printReport("redid", report);
  return 0;
}

export async function diffCommand(id: string | undefined, opts: { turn?: string }): Promise<number> {
  const turn = opts.turn === undefined ? undefined : positive("--turn", opts.turn, 1);
  const text = await userErrors(() =>
    diffFiles({ home: ternHome(), cwd: process.cwd(), id }, { turn, color: process.stdout.isTTY === true }),
  );
  process.stdout.write(text);
  return 0;
}
