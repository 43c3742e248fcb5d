// Its own module so a session can say "checkpoints are off" without loading undo.ts (which loads
// with the first undo, redo or diff).
/** A refusal the user can act on (nothing was changed): one line, exit 2 in the CLI. */
export class UndoError extends Error {
  override name = "UndoError";
}
