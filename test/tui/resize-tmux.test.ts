// Narrowing in tmux (R-UI-13): narrowing while a tool's output tail runs, the screen not
// yet full. tmux re-wraps differently from xterm.js (the emulator of the other pty tests): it
// keeps the cursor on its screen row and pushes the rows above into the scrollback, so the live
// frame's top can land on the screen's first row; and an erase-down from that row's first cell
// is, for tmux (`scroll-on-clear`), a screen clear that scrolls the whole frame into the
// scrollback. Read with `capture-pane` (screen + scrollback) after the turn: no stale frame.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliEnv, TERN_BIN } from "../support/cli.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const haveTmux = spawnSync("tmux", ["-V"]).status === 0;
const TAIL = "for i in $(seq 1 30); do echo progress-line-$i; sleep 0.06; done";
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

describe.skipIf(!haveTmux)("narrowing in tmux while an output tail runs, screen not full", () => {
  let dirs: TempDirs;
  let provider: FakeProvider;
  let sockDir: string;
  let tmux: (...args: string[]) => string;

  beforeEach(async () => {
    dirs = makeTempDirs("tern-tmux-");
    provider = await FakeProvider.start();
    // A server of its own (its own socket, no config file): nothing shared with a user's tmux.
    sockDir = mkdtempSync(join(tmpdir(), "tern-tmux-sock-"));
    const env = cliEnv(dirs.home, { TERM: "xterm-256color", TMUX: undefined });
    tmux = (...args) =>
      execFileSync("tmux", ["-S", join(sockDir, "s"), "-f", "/dev/null", ...args], { env, encoding: "utf8" });
  });
  afterEach(async () => {
    try {
      tmux("kill-server");
    } catch {
      // The server is gone already.
    }
    rmSync(sockDir, { recursive: true, force: true });
    await provider.close();
    dirs.cleanup();
  });

  /** Screen and scrollback, one row a line (trailing blank rows dropped). */
  const capture = () => tmux("capture-pane", "-p", "-S", "-", "-t", "n").trimEnd().split("\n");
  const waitFor = async (pattern: RegExp, ms = 15_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const rows = capture();
      if (pattern.test(rows.join("\n"))) return rows;
      if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}:\n${rows.join("\n")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it.each([
    // The re-wrapped frame still fits above the cursor: nothing of it may stay.
    [60, true],
    // 2.5 times the rows: the frame's top rows are pushed into the scrollback by tmux before tern
    // hears of the resize (no program can erase them there); the rest must still be erased.
    [40, false],
  ])(
    "100 → %i columns: no stale progress row, composer or status line",
    async (cols, fits) => {
      provider.enqueue(
        openaiToolCalls([{ id: "t1", name: "bash", args: { command: TAIL } }]),
        openaiText("all done now"),
      );
      const args = [TERN_BIN, "--yes", "--model", "local/mock-1", "--base-url", provider.baseUrl];
      // Four rows of a shell's output above tern's first screen: the room tmux pushes into its
      // scrollback when the frame re-wraps, so the frame's top stays on screen whatever the
      // first screen's height (it is four rows at most, R-UI-16).
      const command = `seq 1 4; exec ${[process.execPath, ...args].map(quote).join(" ")}`;
      tmux("new-session", "-d", "-s", "n", "-x", "100", "-y", "40", "-c", dirs.workspace, command);
      await waitFor(/context \d+% · \d+ tokens/);
      tmux("send-keys", "-t", "n", "-l", "count please");
      tmux("send-keys", "-t", "n", "Enter");
      await waitFor(/progress-line-\d+\n\s+progress-line-\d+\n\s+progress-line-\d+\n.*Running bash/);
      tmux("resize-window", "-t", "n", "-x", String(cols));
      await waitFor(/— turn 1 · completed/);
      await new Promise((r) => setTimeout(r, 200));
      const all = capture();
      expect(all.filter((row) => /Running bash|Esc to interrupt/.test(row))).toEqual([]);
      expect(all.filter((row) => row.startsWith("┌"))).toHaveLength(1);
      expect(all.filter((row) => row.startsWith("└"))).toHaveLength(1);
      expect(all.filter((row) => /context \d+% ·/.test(row))).toHaveLength(1);
      expect(all.filter((row) => row.startsWith("● bash"))).toHaveLength(1);
      // The row above the frame (the prompt) kept: the erase started at the frame's first row.
      expect(all.filter((row) => row.startsWith("› count please"))).toHaveLength(1);
      if (fits) expect(all.filter((row) => row.startsWith("○ bash"))).toEqual([]);
    },
    30_000,
  );
});
