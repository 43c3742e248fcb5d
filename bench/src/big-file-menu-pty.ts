// The `@file` menu driven as a person would (R-BIG-3): tern's interactive UI in a real
// pseudo-terminal (node-pty, 100×30, read through @xterm/headless) started in the generated
// monorepo. Right after its status line is drawn, `@` and then `<package>/<file name>` are typed
// one key at a time; each keystroke's time runs from writing it to the screen showing both the
// typed text and the menu for it: the rows tern's own matcher gives for that query on the same
// listing (computed here beforehand), since the UI keeps the last menu on screen until the new
// one is ready. The first keystrokes may wait for the background index: that wait is the first
// figure. The UI must echo every keystroke while the index builds or a menu is matched: the
// slowest echo is in the notes. Tab then must complete the target file (the first item).
import xterm from "@xterm/headless";
import { spawn } from "node-pty";
import { workspaceFiles } from "../../src/workspace/workspace-files.js";
import { stripAnsi } from "../../src/tui/ansi.js";
import { fileMenu } from "../../src/tui/completion.js";
import { menuRows } from "../../src/tui/slash-menu.js";
import type { BigTree } from "./big-tree.js";
import { type Paths, type Plan, profileFlags, scene, stats } from "./harness.js";
import type { Row } from "./rows.js";

const { Terminal } = xterm;
const COLS = 100;

interface Screen {
  /** Resolves once xterm has parsed everything written so far. */
  text(): Promise<string>;
  write(keys: string): void;
  close(): void;
}

function ptyScreen(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Screen {
  const term = new Terminal({ cols: COLS, rows: 30, allowProposedApi: true });
  // CI set at all (even empty) makes tern take the terminal for a CI log.
  const interactiveEnv: NodeJS.ProcessEnv = { ...env, TERM: "xterm-256color" };
  delete interactiveEnv.CI;
  const pty = spawn(process.execPath, [...profileFlags(), bin, ...args], {
    name: "xterm-256color",
    cols: COLS,
    rows: 30,
    cwd,
    env: interactiveEnv as Record<string, string>,
  });
  let parsed = Promise.resolve();
  pty.onData((data) => {
    parsed = parsed.then(() => new Promise<void>((resolve) => term.write(data, resolve)));
  });
  return {
    async text() {
      await parsed;
      const buffer = term.buffer.active;
      const lines: string[] = [];
      for (let i = 0; i < term.rows; i++)
        lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? "");
      return lines.join("\n");
    },
    write: (keys) => pty.write(keys),
    close: () => pty.kill(),
  };
}

/** Milliseconds until `test` holds for the screen (polled every 2 ms), or throws past `timeoutMs`. */
async function until(screen: Screen, test: (text: string) => boolean, what: string, timeoutMs = 30_000) {
  const started = performance.now();
  for (;;) {
    const text = await screen.text();
    if (test(text)) return performance.now() - started;
    if (performance.now() - started > timeoutMs)
      throw new Error(`@file pty: no ${what} within ${timeoutMs} ms; screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The menu's item rows (no key hint) as tern draws them for `query` on `files`, trimmed. */
function expectedRows(query: string, files: readonly string[]): string[] {
  const rows = menuRows(fileMenu(query, query.length, files) ?? null, COLS);
  return rows.slice(0, -1).map((row) => stripAnsi(row).trim());
}

/** The screen shows these rows, one after another, under the composer. */
function showsRows(screen: string, rows: readonly string[]): boolean {
  const lines = screen.split("\n").map((line) => line.trim());
  const at = lines.indexOf(rows[0]);
  return at >= 0 && rows.every((row, i) => lines[at + i] === row);
}

export async function bigFileMenuPtyBench(p: Paths, plan: Plan, tree: BigTree): Promise<Row[]> {
  const target = "packages/pkg0100/src/mod3/file13.ts";
  const typed = "pkg0100/file13";
  const listed = await workspaceFiles(tree.dir);
  const menus = [...Array(typed.length + 1).keys()].map((n) => expectedRows(`@${typed.slice(0, n)}`, listed));
  const slowest: number[] = [];
  const firstMenu: number[] = [];
  let slowestEcho = 0;
  /** The measured runs' keys, each as `query echo/menu` ms (which key is slow, and why). */
  const perKey: string[] = [];
  for (let run = 0; run < plan.warmup + plan.heavyRuns; run++) {
    const s = await scene();
    const screen = ptyScreen(p.bin, s.modelArgs, tree.dir, s.env);
    try {
      await until(screen, (t) => /context \d+% · \d+ tokens/.test(t), "status line", 60_000);
      // Ink turns raw mode on right after its first frame.
      await new Promise((r) => setTimeout(r, 100));
      let worst = 0;
      let first = 0;
      for (let n = 0; n <= typed.length; n++) {
        const query = `@${typed.slice(0, n)}`;
        screen.write(n === 0 ? "@" : typed[n - 1]);
        // The composer's line (inside its box) ends with what was typed; a menu line never does.
        const echoed = (t: string) =>
          t.split("\n").some((line) => line.replace(/[│\s]+$/, "").endsWith(query));
        const echo = await until(screen, echoed, `echo of ${query}`);
        slowestEcho = Math.max(slowestEcho, echo);
        const menu =
          echo + (await until(screen, (t) => echoed(t) && showsRows(t, menus[n]), `menu for ${query}`));
        if (run >= plan.warmup) perKey.push(`${query} ${Math.round(echo)}/${Math.round(menu)}`);
        if (n === 0) first = menu;
        else worst = Math.max(worst, menu);
      }
      // The menu's labels are clipped to its column: Tab completes the first one into the composer.
      screen.write("\t");
      await until(
        screen,
        (t) => t.split("\n").some((line) => line.replace(/[│\s]+$/, "").endsWith(`@${target}`)),
        `completion of ${target}`,
      );
      if (run >= plan.warmup) {
        slowest.push(worst);
        firstMenu.push(first);
      }
    } finally {
      screen.close();
      await s.close();
    }
  }
  return [
    {
      name: "big @file pty",
      metric: `tern UI in a pty on ${tree.files} files: slowest keystroke of ${typed} to its menu`,
      unit: "ms",
      stats: stats(slowest),
      target: { kind: "max", value: 300, text: "<= 300 ms" },
      notes: {
        firstMenuAfterStartMs: Math.round(stats(firstMenu).median),
        slowestEchoMs: Math.round(slowestEcho),
        echoAndMenuMsPerKey: perKey.join(", "),
      },
    },
  ];
}
