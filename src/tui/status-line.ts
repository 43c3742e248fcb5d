// The `statusLine` command (R-UI-23): its first output line replaces the built-in status line.
// It runs when what it is told about changes (an engine event, a mode or model switch, a new
// transcript item), at most once a second, with the session's state as JSON on stdin
// (status-line-input.ts). It can never hold up the UI: it runs in the background, is killed
// after 1 s, and a failure keeps the last good line (the first failure says why, once).
// Control sequences are stripped from what it prints, so it cannot drive the terminal.
import { type ChildProcess, spawn } from "node:child_process";
import type { StatusLineConfig } from "../config/types.js";
import type { EngineEvent } from "../engine/door/events.js";
import { recordFileOf } from "../workspace/session-queries.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import { ternVersion } from "./greeting.js";
import { statusLineInput } from "./status-line-input.js";
import { StatusLineTotals } from "./status-line-totals.js";
import type { Store } from "./store.js";
import type { UiState } from "./ui-state.js";

const MIN_INTERVAL_MS = 1000;
const TIMEOUT_MS = 1000;
/** Output past this is not read: only the first line is shown. */
const MAX_OUTPUT = 64 * 1024;

type Ran = { ok: true; stdout: string } | { ok: false; why: string };

/** Runs the command through the shell, in its own process group so a timeout kills all of it. */
function runCommand(
  command: string,
  cwd: string,
  input: string,
  track: (c?: ChildProcess) => void,
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    track(child);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, TIMEOUT_MS);
    child.stdout?.on("data", (d) => {
      if (stdout.length < MAX_OUTPUT) stdout += d;
    });
    child.stderr?.on("data", (d) => {
      if (stderr.length < MAX_OUTPUT) stderr += d;
    });
    // A command that never reads its stdin must not fail the run with EPIPE.
    child.stdin?.on("error", () => {});
    child.stdin?.end(input);
    child.once("error", (err) => {
      clearTimeout(timer);
      track(undefined);
      resolve({ ok: false, why: err.message });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      track(undefined);
      if (timedOut) resolve({ ok: false, why: `took longer than ${TIMEOUT_MS / 1000} s` });
      else if (code !== 0) {
        const first = stripControlSequences(stderr.trim().split("\n")[0] ?? "").slice(0, 120);
        resolve({ ok: false, why: `exited with ${code ?? "a signal"}${first ? `: ${first}` : ""}` });
      } else resolve({ ok: true, stdout });
    });
  });
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

export class StatusLine {
  private config: StatusLineConfig | undefined;
  private readonly totals: StatusLineTotals;
  private startedAt = performance.now();
  /** The session's record file, looked up at the first run (`sessionId` until then). */
  private transcriptPath: { file: string } | { sessionId: string } = { file: "" };
  private readonly cwd: string;
  private lastRun = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private child: ChildProcess | undefined;
  private wanted = false;
  private warned = false;
  /** What the last run was told about, so a redraw that changed nothing runs nothing. */
  private seen: { status: UiState["status"]; items: number; busy: boolean } | undefined;

  constructor(
    private readonly store: Store,
    private readonly where: { home: string; cwd: string },
    private readonly warn: (text: string) => void,
  ) {
    this.cwd = where.cwd;
    this.totals = new StatusLineTotals(where.cwd);
    store.subscribe(() => this.stateChanged());
    // A command still running when tern exits goes with it.
    process.once("exit", () => {
      if (this.child) killGroup(this.child);
    });
  }

  /**
   * The session's config (again after /clear, /resume, /fork): whether a command is set, and
   * which session it is (its record is the command's transcript_path).
   */
  configure(config: StatusLineConfig | undefined, sessionId: string): void {
    this.config = config;
    this.transcriptPath = { sessionId };
    // The totals are the session's: a switched-to session starts its own count and clock.
    this.totals.reset();
    this.startedAt = performance.now();
    if (!config) this.store.dispatch({ type: "status_line", text: null });
    this.request();
  }

  /** Engine events add to the totals (tokens, API time, lines); every event may change the line. */
  event(event: EngineEvent): void {
    if (!this.config) return;
    this.totals.event(event);
    this.request();
  }

  private stateChanged(): void {
    const s = this.store.get();
    const seen = this.seen;
    if (seen && seen.status === s.status && seen.items === s.items.length && seen.busy === s.busy) return;
    this.seen = { status: s.status, items: s.items.length, busy: s.busy };
    this.request();
  }

  private request(): void {
    if (!this.config) return;
    this.wanted = true;
    if (this.child || this.timer) return;
    const wait = Math.max(0, this.lastRun + MIN_INTERVAL_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, wait);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    const config = this.config;
    if (!config || !this.wanted) return;
    this.wanted = false;
    this.lastRun = performance.now();
    if ("sessionId" in this.transcriptPath)
      this.transcriptPath = { file: recordFileOf(this.where.home, this.transcriptPath.sessionId) };
    const input = statusLineInput(this.store.get(), this.totals, {
      cwd: this.cwd,
      version: ternVersion(),
      transcriptPath: this.transcriptPath.file,
      startedAt: this.startedAt,
      now: performance.now(),
    });
    const ran = await runCommand(config.command, this.cwd, `${JSON.stringify(input)}\n`, (c) => {
      this.child = c;
    });
    if (ran.ok && this.config === config) {
      const line = stripControlSequences(ran.stdout.split("\n")[0] ?? "").replace(/\t/g, " ");
      this.store.dispatch({ type: "status_line", text: " ".repeat(config.padding ?? 0) + line });
    } else if (!ran.ok && !this.warned) {
      this.warned = true;
      this.warn(`statusLine: the command ${ran.why}; the last line it printed stays`);
    }
    if (this.wanted) this.request();
  }
}
