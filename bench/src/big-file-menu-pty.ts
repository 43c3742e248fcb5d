// The `@file` menu driven as a person would (R-BIG-3): tern's interactive UI in a real
// pseudo-terminal (node-pty, 100×30, read through @xterm/headless) started in the generated
// monorepo. Right after its status line is drawn, `@` and then `<package>/<file name>` are typed
// one key at a time; each keystroke's time runs from writing it to the screen showing both the
// typed text and the menu for it (the first keystrokes may wait for the background index: that
// wait is the first figure). The UI must echo every keystroke while the index builds: the slowest
// echo is in the notes. Tab then must complete the target file (the first item).
import xterm from "@xterm/headless";
import { spawn } from "node-pty";
import type { BigTree } from "./big-tree.js";
import { type Paths, type Plan, scene, stats } from "./harness.js";
import type { Row } from "./rows.js";

const { Terminal } = xterm;

interface Screen {
  /** Resolves once xterm has parsed everything written so far. */
  text(): Promise<string>;
  write(keys: string): void;
  close(): void;
}

function ptyScreen(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Screen {
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  // CI set at all (even empty) makes tern take the terminal for a CI log.
  const interactiveEnv: NodeJS.ProcessEnv = { ...env, TERM: "xterm-256color" };
  delete interactiveEnv.CI;
  const pty = spawn(process.execPath, [bin, ...args], {
    name: "xterm-256color",
    cols: 100,
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

export async function bigFileMenuPtyBench(p: Paths, plan: Plan, tree: BigTree): Promise<Row[]> {
  const target = "packages/pkg0100/src/mod3/file13.ts";
  const typed = "pkg0100/file13";
  const slowest: number[] = [];
  const firstMenu: number[] = [];
  let slowestEcho = 0;
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
          echo + (await until(screen, (t) => echoed(t) && t.includes("@packages/"), `menu for ${query}`));
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
      },
    },
  ];
}
