// Undo and redo in the composer (R-UI-27): Ctrl+_ undoes, as in readline and Claude Code (also
// Ctrl+X Ctrl+U, readline's other binding); Ctrl+X Ctrl+_ and Alt+_ redo. Characters typed in a
// row are one step up to the next space or caret jump, as an editor groups them; every other
// change (a kill, a paste, a completion, a recalled prompt) is a step of its own.
import type { Edit } from "./composer.js";

/** Steps kept; older ones are forgotten. */
const MAX_STEPS = 200;

/** True when `after` is `before` with one short run typed at its cursor, without a space. */
function typed(before: Edit, after: Edit): boolean {
  const added = after.text.length - before.text.length;
  if (added <= 0 || added > 8 || after.cursor !== before.cursor + added) return false;
  const run = after.text.slice(before.cursor, after.cursor);
  return (
    !/\s/.test(run) &&
    after.text.slice(0, before.cursor) === before.text.slice(0, before.cursor) &&
    after.text.slice(after.cursor) === before.text.slice(before.cursor)
  );
}

export class EditHistory {
  private readonly undos: Edit[] = [];
  private redos: Edit[] = [];
  /** The edit the last typed run ended at: the next typed character joins its step. */
  private typingAt: Edit | undefined;

  /** A change from `before` to `after` (same text: a caret move, which ends a typed run). */
  record(before: Edit, after: Edit): void {
    if (before.text === after.text) {
      if (before.cursor !== after.cursor) this.typingAt = undefined;
      return;
    }
    const isTyping = typed(before, after);
    const joins =
      isTyping &&
      this.typingAt !== undefined &&
      this.typingAt.text === before.text &&
      this.typingAt.cursor === before.cursor;
    if (!joins) {
      this.undos.push(before);
      if (this.undos.length > MAX_STEPS) this.undos.shift();
    }
    this.typingAt = isTyping ? after : undefined;
    this.redos = [];
  }

  /** The edit before the last step, or undefined when there is none. */
  undo(current: Edit): Edit | undefined {
    const previous = this.undos.pop();
    if (!previous) return undefined;
    this.redos.push(current);
    this.typingAt = undefined;
    return previous;
  }

  redo(current: Edit): Edit | undefined {
    const next = this.redos.pop();
    if (!next) return undefined;
    this.undos.push(current);
    this.typingAt = undefined;
    return next;
  }
}
