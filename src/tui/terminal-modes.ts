// Terminal input modes the composer needs (R-UI-14), switched on at start and off on every
// exit: bracketed paste (a paste never sends), and the extended key modes that let Shift+Enter
// differ from Enter — the kitty keyboard protocol (`CSI > 1 u`, disambiguate) where supported,
// xterm's modifyOtherKeys level 1 elsewhere. Terminals without them ignore the sequences; Ink
// parses both report forms.
import { PASTE_OFF, PASTE_ON } from "./raw-input.js";

const KITTY_PUSH = "\x1b[>1u";
const KITTY_POP = "\x1b[<u";
const MODIFY_OTHER_KEYS_ON = "\x1b[>4;1m";
/** Back to the terminal's own setting. */
const MODIFY_OTHER_KEYS_RESET = "\x1b[>4m";

export const INPUT_MODES_ON = PASTE_ON + MODIFY_OTHER_KEYS_ON + KITTY_PUSH;
export const INPUT_MODES_OFF = KITTY_POP + MODIFY_OTHER_KEYS_RESET + PASTE_OFF;

let on = false;

export function inputModesOn(): void {
  if (on || !process.stdout.isTTY) return;
  on = true;
  process.stdout.write(INPUT_MODES_ON);
}

/** Safe to call more than once and from an 'exit' handler (a synchronous write). */
export function inputModesOff(): void {
  if (!on) return;
  on = false;
  process.stdout.write(INPUT_MODES_OFF);
}

let held: { chunks: Buffer[]; onReadable(): void } | undefined;

/**
 * Keys typed while the UI starts are kept for the composer instead of being echoed above it:
 * raw mode (no echo) from the moment the interactive UI is chosen, the bytes read and held
 * until Ink listens. Ctrl+C among them still leaves, as the signal would have. (Read with
 * 'readable' as Ink does: after a 'data' listener and pause(), Ink's reads would never start.)
 */
export function holdTypeAhead(already = ""): void {
  const stdin = process.stdin;
  if (held || !stdin.isTTY) return;
  stdin.setRawMode(true);
  // `already`: keys read before the hold began (the picker's read that held its Enter).
  const chunks: Buffer[] = already ? [Buffer.from(already)] : [];
  const onReadable = () => {
    for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read()) {
      const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      if (data.includes(3)) {
        releaseTypeAhead();
        process.exit(130);
      }
      chunks.push(data);
    }
  };
  held = { chunks, onReadable };
  stdin.on("readable", onReadable);
}

/** Hands the held keys back to the stream for Ink to read (raw mode stays on for it). */
export function giveBackTypeAhead(): void {
  if (!held) return;
  process.stdin.off("readable", held.onReadable);
  if (held.chunks.length) process.stdin.unshift(Buffer.concat(held.chunks));
  held = undefined;
}

/** Gives the terminal back as it was when the UI did not start (a bad flag, a missing session). */
export function releaseTypeAhead(): void {
  const stdin = process.stdin;
  if (held) {
    stdin.off("readable", held.onReadable);
    held = undefined;
    // Nothing reads it any more: it must not keep the process alive.
    stdin.pause();
    stdin.unref();
  }
  if (stdin.isTTY && stdin.isRaw) stdin.setRawMode(false);
}
