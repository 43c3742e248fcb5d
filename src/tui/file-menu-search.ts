// The `@file` menu off the keystroke's path (R-BIG-3): a key that needs a big scan (the first
// ones of a query, over most of 100,000 paths) is drawn first and its matches are found
// afterwards, in slices of a few milliseconds between which the event loop draws frames and
// reads keys; the next key cancels a scan that has not finished (its answer would be stale). Up
// to then the last menu stays on screen, as fzf keeps its last list. A small scan (typing on
// narrows the candidates to some thousands) runs at once: key and menu in one frame.
import { atToken, fileMenuOf, type Menu } from "./completion.js";
import { FileScan } from "./file-match.js";

/** How long one slice may hold the event loop: well under a frame (Ink draws every 33 ms). */
const SLICE_MS = 8;
/** Paths a scan may have for it to run with the key: about a millisecond, cheaper than a frame. */
const WITH_THE_KEY = 12_000;

export class FileMenuSearch {
  private running:
    | { scan: FileScan; text: string; cursor: number; token: { start: number; end: number } }
    | undefined;
  private timer: NodeJS.Immediate | undefined;

  /** `show` gets the menu for the text and cursor the search was started for. */
  constructor(private readonly show: (menu: Menu | undefined, text: string, cursor: number) => void) {}

  /** A search is running whose menu has not been shown yet. */
  get pending(): boolean {
    return this.running !== undefined;
  }

  /** Starts matching the `@` token at the cursor (cancelling any search still running). */
  start(text: string, cursor: number, files: readonly string[]): void {
    this.cancel();
    const token = atToken(text, cursor);
    if (!token) return;
    const scan = new FileScan(files, token.query);
    this.running = { scan, text, cursor, token };
    if (scan.left.prepared && scan.left.paths <= WITH_THE_KEY) this.finish();
    else this.timer = setImmediate(() => this.slice());
  }

  cancel(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    this.running = undefined;
  }

  /** Runs the search to its end now (Tab or Enter must take this text's matches, not the last ones). */
  finish(): void {
    if (!this.running) return;
    this.running.scan.step();
    this.deliver();
  }

  private slice(): void {
    this.timer = undefined;
    if (!this.running) return;
    if (this.running.scan.step(SLICE_MS)) this.deliver();
    else this.timer = setImmediate(() => this.slice());
  }

  private deliver(): void {
    const done = this.running;
    this.cancel();
    if (done) this.show(fileMenuOf(done.token, done.scan.paths()), done.text, done.cursor);
  }
}
