// Ready-to-type with MCP servers (R-EXT): `tern` (the interactive UI) in a pseudo-terminal until
// its status line is drawn, with three configured servers that each take 3 s to start vs with
// none, interleaved. Servers start in the background, so the two should be close.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node-pty";
import { type Paths, scene, stats } from "./harness.js";
import type { Row } from "./rows.js";

const READY = /context \d+% · \d+ tokens/;

function readyMs(p: Paths, s: Awaited<ReturnType<typeof scene>>): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const pty = spawn(process.execPath, [p.bin, ...s.modelArgs], {
      name: "xterm-256color",
      cols: 100,
      rows: 30,
      cwd: s.dirs.workspace,
      env: { ...s.env, TERM: "xterm-256color" } as Record<string, string>,
    });
    let out = "";
    const timer = setTimeout(() => {
      pty.kill("SIGKILL");
      reject(new Error(`tern UI not ready after 30 s:\n${out.slice(-500)}`));
    }, 30_000);
    // The status line is drawn with ANSI codes between cells; strip them before matching.
    pty.onData((d) => {
      out += d;
      if (READY.test(out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ""))) {
        const ms = performance.now() - started;
        clearTimeout(timer);
        pty.onExit(() => resolvePromise(ms));
        pty.kill("SIGTERM");
      }
    });
  });
}

export async function mcpStartBench(p: Paths, plan: { warmup: number; runs: number }): Promise<Row[]> {
  const server = join(p.root, "test", "tools", "fixtures", "mcp-server.mjs");
  const plain = await scene();
  const withServers = await scene();
  writeFileSync(
    join(withServers.dirs.home, "config.json"),
    JSON.stringify({
      toolSets: ["a", "b", "c"].map((name) => ({
        name,
        command: process.execPath,
        args: [server],
        env: { FIXTURE_START_DELAY_MS: "3000" },
      })),
    }),
  );
  try {
    const none: number[] = [];
    const three: number[] = [];
    for (let i = 0; i < plan.warmup + plan.runs; i++) {
      const a = await readyMs(p, plain);
      const b = await readyMs(p, withServers);
      if (i >= plan.warmup) {
        none.push(a);
        three.push(b);
      }
    }
    return [
      {
        name: "mcp start",
        metric: "tern UI status line, 3 servers (3 s start each)",
        unit: "ms",
        stats: stats(three),
        baseline: { name: "no servers", stats: stats(none) },
        target: { kind: "ratio", value: 1.3, text: "<= 1.3x" },
      },
    ];
  } finally {
    await plain.close();
    await withServers.close();
  }
}
