// A real pseudo-terminal for UI tests: the built CLI runs under node-pty (100x30) and its
// output feeds an @xterm/headless terminal, so tests read what a person would see, scrollback
// included.
import xterm, { type IBufferCell } from "@xterm/headless";
import { type IPty, spawn } from "node-pty";
import { cliEnv, TERN_BIN } from "./cli.js";

const { Terminal } = xterm;

export const KEYS = {
  enter: "\r",
  escape: "\x1b",
  ctrlC: "\x03",
  backspace: "\x7f",
  /** The Delete key (forward delete). */
  delete: "\x1b[3~",
  left: "\x1b[D",
  right: "\x1b[C",
  up: "\x1b[A",
  down: "\x1b[B",
  home: "\x1b[H",
  end: "\x1b[F",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  ctrlA: "\x01",
  ctrlE: "\x05",
  /** What xterm sends for Alt+Enter (meta sends escape). */
  altEnter: "\x1b\r",
  /** Shift+Tab (back-tab). */
  shiftTab: "\x1b[Z",
  space: " ",
} as const;

export interface VTermOptions {
  home: string;
  cwd: string;
  args: string[];
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
}

export class VTerm {
  readonly term: InstanceType<typeof Terminal>;
  readonly pty: IPty;
  /** Every byte the program wrote, for debugging a failed wait. */
  raw = "";
  exitCode: number | undefined;
  private lastDataAt = 0;
  readonly exited: Promise<number>;
  private pending = Promise.resolve();

  constructor(opts: VTermOptions) {
    const cols = opts.cols ?? 100;
    const rows = opts.rows ?? 30;
    this.term = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
    // The emulator is xterm.js, which re-wraps on resize as VS Code's terminal (its best-known
    // host) does: said as VS Code says it, so tern counts rows the xterm.js way (caret-park.ts).
    const env = cliEnv(opts.home, {
      TERM: "xterm-256color",
      TERM_PROGRAM: "vscode",
      TMUX: undefined,
      CI: undefined,
      ...opts.env,
    });
    this.pty = spawn(process.execPath, [TERN_BIN, ...opts.args], {
      name: "xterm-256color",
      cols,
      rows,
      cwd: opts.cwd,
      env: env as Record<string, string>,
    });
    this.pty.onData((data) => {
      this.raw += data;
      this.lastDataAt = Date.now();
      // xterm parses asynchronously: chain the writes so screen() can wait for them all.
      this.pending = this.pending.then(() => new Promise<void>((resolve) => this.term.write(data, resolve)));
    });
    this.exited = new Promise((resolve) =>
      this.pty.onExit(({ exitCode }) => {
        this.exitCode = exitCode;
        resolve(exitCode);
      }),
    );
  }

  /** Every line of scrollback and screen, right-trimmed. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i++) out.push(buffer.getLine(i)?.translateToString(true) ?? "");
    return out;
  }

  /** The visible screen (rows lines). */
  screen(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < this.term.rows; i++)
      out.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? "");
    return out;
  }

  /** The characters of the visible screen drawn in inverse video (the composer's cursor cell). */
  inverse(): string {
    return this.cellsWhere((cell) => cell.isInverse() !== 0);
  }

  /** The characters of the visible screen drawn dimmed (faint), e.g. streamed reasoning. */
  dim(): string {
    return this.cellsWhere((cell) => cell.isDim() !== 0);
  }

  /** The characters of the visible screen whose cell has an attribute, in reading order. */
  private cellsWhere(has: (cell: IBufferCell) => boolean): string {
    const buffer = this.term.buffer.active;
    let out = "";
    for (let y = 0; y < this.term.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      for (let x = 0; line && x < this.term.cols; x++) {
        const cell = line.getCell(x);
        if (cell && has(cell)) out += cell.getChars() || " ";
      }
    }
    return out;
  }

  text(): string {
    return this.lines().join("\n");
  }

  /** Waits until the scrollback + screen shows the text (or matches the pattern). */
  async waitFor(what: string | RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.pending;
      const text = this.text();
      if (typeof what === "string" ? text.includes(what) : what.test(text)) return text;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${String(what)}; screen:\n${this.screen().join("\n")}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Waits until the visible screen (not the scrollback) shows the text. */
  async waitForScreen(what: string | RegExp, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.pending;
      const text = this.screen().join("\n");
      if (typeof what === "string" ? text.includes(what) : what.test(text)) return text;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${String(what)} on screen; screen:\n${text}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Waits until the visible screen no longer shows the text. */
  async waitForGone(what: string | RegExp, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.pending;
      const text = this.screen().join("\n");
      if (!(typeof what === "string" ? text.includes(what) : what.test(text))) return;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${String(what)} to go; screen:\n${this.screen().join("\n")}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Types text one key at a time, as a person would. */
  async type(text: string): Promise<void> {
    for (const ch of text) {
      this.pty.write(ch);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Writes raw bytes in one chunk (a paste, an escape sequence), then lets the program read them. */
  async write(bytes: string): Promise<void> {
    this.pty.write(bytes);
    await new Promise((r) => setTimeout(r, 30));
  }

  async press(key: keyof typeof KEYS): Promise<void> {
    this.pty.write(KEYS[key]);
    await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * Resizes the terminal as a person dragging its window would: the screen re-wraps, then the
   * program is told. It resizes right after a frame has arrived and gone quiet (a spinner draws
   * every 120 ms): a frame still in the pipe when the screen re-wraps would be drawn at the old
   * width, a race no program can win, since it draws before it is told.
   */
  async resize(cols: number, rows: number): Promise<void> {
    const deadline = Date.now() + 2000;
    for (;;) {
      const seen = this.raw.length;
      while (this.raw.length === seen && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      await this.pending;
      await new Promise((r) => setTimeout(r, 15));
      await this.pending;
      // A timer runs before the poll for I/O: output already in the pipe is only read (and
      // counted in lastDataAt) after it, so give the poll a turn before judging the quiet.
      await new Promise((r) => setImmediate(r));
      // Checked and acted on in the same tick, so no output slips in between.
      if (Date.now() - this.lastDataAt >= 15 || Date.now() >= deadline) break;
    }
    this.term.resize(cols, rows);
    this.pty.resize(cols, rows);
    await new Promise((r) => setTimeout(r, 50));
  }

  async close(): Promise<void> {
    if (this.exitCode === undefined) {
      this.pty.kill();
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, 2000))]);
    }
    this.term.dispose();
  }
}
