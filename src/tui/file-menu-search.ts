// The `@file` menu off the keystroke's path (R-BIG-3): a key's matches are looked for during
// one slice of a few milliseconds; found by then (a narrowed query, or an idle machine), key and
// menu are drawn in one frame. Else the key is drawn first and the scan goes on in slices
// between which the event loop draws frames and reads keys; the next key cancels a scan that
// has not finished (its answer would be stale). Up to then the last menu stays on screen, as
// fzf keeps its last list.
import { atToken, fileMenuOf, type Menu } from "./completion.js";
import { FileScan } from "./file-match.js";

/** How long one slice may hold the event loop: well under a frame (Ink draws every 33 ms). */
const SLICE_MS = 8;

export class FileMenuSearch {
  private running:
    | { scan: FileScan; text: string; cursor: number; token: { start: number; end: number } }
    | undefined;
  private timer: NodeJS.Immediate | undefined;

  /**
   * `show` gets the menu for the text and cursor the search was started for; `withTheKeyMs` is
   * the slice run before the key is drawn (tests give 0: one chunk of paths, then the clock).
   */
  constructor(
    private readonly show: (menu: Menu | undefined, text: string, cursor: number) => void,
    private readonly withTheKeyMs = SLICE_MS,
  ) {}

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
    if (scan.step(this.withTheKeyMs)) this.deliver();
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
