// What Ink's useInput hides: the raw sequences it delivers (one per key or text run, split at
// ESC). Bracketed paste (R-UI composer) and Delete vs Backspace need them: Ink reports both
// `\x7f` and `\x1b[3~` as `key.delete`, and a paste as keys (its Enter would send the prompt).

/** Bracketed paste on / off (xterm): the terminal then wraps pasted text in START … END. */
export const PASTE_ON = "\x1b[?2004h";
export const PASTE_OFF = "\x1b[?2004l";
const START = "\x1b[200~";
const END = "\x1b[201~";

/** The raw Delete key (forward delete), with or without modifiers; rxvt's forms too. */
const DELETE_KEY = /^\x1b\[3(?:;\d+)?[~$^]$/;

/** The longest end of `s` that is a proper beginning of `marker` (a marker split over chunks). */
function partialSuffix(s: string, marker: string): string {
  for (let n = Math.min(s.length, marker.length - 1); n > 0; n--)
    if (marker.startsWith(s.slice(-n))) return s.slice(-n);
  return "";
}

export class RawInput {
  /** The raw sequence of the event being handled. */
  private last = "";
  /** The event being handled belongs to a paste: the key handler must ignore it. */
  consumed = false;
  /** Typed text to handle as keys before the event itself (held text, text after a paste). */
  leftover = "";
  private pasting = false;
  private buffer = "";
  /** Text events swallowed because they may be the middle of a split START marker. */
  private held = "";
  /** A marker's beginning at the end of the previous event (Ink flushes a lone ESC early). */
  private carry = "";

  constructor(private readonly onPaste: (text: string) => void) {}

  /** The Delete key (not Backspace) was pressed. */
  get forwardDelete(): boolean {
    return DELETE_KEY.test(this.last);
  }

  /** Alt+_ was pressed (ESC _): Ink reports it as a plain `_` (its meta keys are letters and digits). */
  get altUnderscore(): boolean {
    return this.last === "\x1b_";
  }

  /** Esc Esc read at once (Ink reports it as one Esc). */
  get doubleEscape(): boolean {
    return this.last === "\x1b\x1b";
  }

  /** Sees every raw event before useInput does (a prepended listener on Ink's input emitter). */
  feed(data: string): void {
    this.last = data;
    this.leftover = "";
    this.consumed = this.pasting;
    let s = this.carry + data;
    this.carry = "";
    for (;;) {
      if (!this.pasting) {
        const at = s.indexOf(START);
        if (at === -1) {
          // Text after a paste's end in the same event is typed now.
          if (this.consumed) {
            this.leftover = s;
            return;
          }
          const partial = partialSuffix(s, START);
          if (partial === s && partial.length > data.length && !data.includes("\x1b")) {
            // Text that may go on a marker Ink cut after its ESC ("\x1b", then "[20"): held back
            // until the next event tells, then typed after all if it was no marker.
            this.consumed = true;
            this.held += data;
          } else {
            this.leftover = this.held;
            this.held = "";
          }
          this.carry = partial;
          return;
        }
        this.held = "";
        this.consumed = true;
        this.pasting = true;
        s = s.slice(at + START.length);
        continue;
      }
      this.consumed = true;
      const at = s.indexOf(END);
      if (at === -1) {
        this.carry = partialSuffix(s, END);
        this.buffer += s.slice(0, s.length - this.carry.length);
        return;
      }
      const text = this.buffer + s.slice(0, at);
      this.buffer = "";
      this.pasting = false;
      // Terminals send a pasted line break as CR; the composer's lines are split on "\n".
      this.onPaste(text.replace(/\r\n?/g, "\n"));
      s = s.slice(at + END.length);
    }
  }
}
