// Answers that end a round without ending the turn: the reply was cut at the output limit
// (`length`, up to `maxTruncationContinues` times), or Anthropic paused a long run of its own
// server tools (`pause_turn`, which R-PROV-5 keeps as `other:pause_turn`). Either way the answer
// stays in the history and a note asks the model to go on (the record holds no two answers in a
// row, so the note sits between them).

export const PAUSED = "other:pause_turn";

/** A server that pauses without end must not spend the whole model-call budget. */
export const MAX_PAUSES = 8;

/** A Stop hook keeps a turn going at most this many times in a row (R-HOOK-3). */
export const MAX_STOP_CONTINUES = 8;

const NOTES: Readonly<Record<string, string>> = {
  length: "Your previous reply was cut off at the output token limit. Continue exactly where it stopped.",
  [PAUSED]: "The provider paused your previous reply (pause_turn). Continue where it stopped.",
};

/** The note that continues the turn after this finish, or undefined when the finish ends it. */
export function continuationNote(finish: string): string | undefined {
  return NOTES[finish];
}
