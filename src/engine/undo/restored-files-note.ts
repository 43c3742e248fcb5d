// What the model is told after the files alone were restored (R-UI-29, the rewind picker's "files
// only"): that restore keeps every turn in the context, so what the model remembers of the files
// would be stale. The next turn's request carries one notice, after the prompt, naming the prompt
// the files went back to and the paths restored. It is worked out from the record, so a resumed
// session owes it as well, a redo that took the restore back leaves nothing owed, and a notice
// already given (a `/retry` after the restore) is not given twice.
import type { RecordLine, UndoRecord } from "../../record/types.js";
import { undoHistory } from "../../record/undo-history.js";

/** How the notice begins; a notice that begins so after the restore means the model was told. */
export const RESTORED_FILES_MARK = "[tern: files restored]";

/** The longest prompt excerpt the notice quotes. */
const QUOTED = 120;

/** The files-only restores standing at the end of the undo history (none after a full undo or a redo of them). */
function standingRestores(archive: readonly RecordLine[]): UndoRecord[] {
  const { undos } = undoHistory(archive);
  let first = undos.length;
  while (first > 0 && undos[first - 1].filesOnly) first--;
  return undos.slice(first);
}

/**
 * Whether an `undo` line follows the newest prompt: a prompt ends what redo can take back, so
 * without one nothing is owed. Read from the end, it costs a turn's lines, not the session's.
 */
function undoSinceLastPrompt(archive: readonly RecordLine[]): boolean {
  for (let i = archive.length - 1; i >= 0; i--) {
    const type = archive[i].type;
    if (type === "undo") return true;
    if (type === "user_prompt" || type === "cleared") return false;
  }
  return false;
}

/** The prompt of `turn`, as one line at most {@link QUOTED} characters long. */
function promptOf(archive: readonly RecordLine[], turn: number): string | undefined {
  const line = archive.find((l) => l.type === "user_prompt" && l.turn === turn);
  if (line?.type !== "user_prompt") return undefined;
  const text = line.content
    .map((p) => (p.type === "text" ? p.text : "[image]"))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > QUOTED ? `${text.slice(0, QUOTED - 1)}…` : text;
}

/** The notice the next request owes the model, or undefined when nothing was restored (or it was told). */
export function restoredFilesNote(archive: readonly RecordLine[]): string | undefined {
  if (!undoSinceLastPrompt(archive)) return undefined;
  const restores = standingRestores(archive);
  const newest = restores.at(-1);
  if (!newest) return undefined;
  const told = archive.some(
    (l) => l.seq > newest.seq && l.type === "notice" && l.text.startsWith(RESTORED_FILES_MARK),
  );
  if (told) return undefined;
  const paths = new Set<string>();
  let unnamed = 0;
  for (const r of restores) {
    for (const p of r.paths ?? []) paths.add(p);
    unnamed += Math.max(0, (r.pathCount ?? 0) - (r.paths?.length ?? 0));
  }
  const turn = newest.toTurn + 1;
  const prompt = promptOf(archive, turn);
  const before = prompt === undefined ? `turn ${turn}` : `the user's message "${prompt}"`;
  const listed =
    paths.size === 0
      ? "No file differed, so none changed."
      : `The restored paths (created, changed or deleted back): ${[...paths].join(", ")}` +
        (unnamed > 0 ? ` and ${unnamed} more.` : ".");
  return (
    `${RESTORED_FILES_MARK} Before this message the user restored the workspace files to how they ` +
    `were before ${before}; the conversation was kept. What later turns did to these files is no ` +
    `longer on disk. ${listed} Read a file again before relying on what you remember of it.`
  );
}
