// 30 `bash echo` rounds with and without a no-op PreToolUse and PostToolUse hook on every call
// (R-HOOK): what the hooks add per call beyond their own processes. A hook's own cost is taken as
// the time to spawn and reap `bash -c true` here, measured in the same run.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Paths, type Plan, repeat, scene, stats } from "./harness.js";
import type { Row } from "./rows.js";
import { toolRun } from "./tool-loop-benches.js";

const ROUNDS = 30;

function hookProcessMs(): Promise<number> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn("bash", ["-c", "cat >/dev/null; true"], { stdio: ["pipe", "ignore", "ignore"] });
    child.stdin.end('{"hook_event_name":"PreToolUse"}');
    child.on("close", () => done(performance.now() - started));
  });
}

export async function hooksBench(p: Paths, plan: Plan): Promise<Row[]> {
  const plain = await scene();
  const hooked = await scene();
  const noop = [{ hooks: [{ type: "command", command: "cat >/dev/null; true" }] }];
  writeFileSync(
    join(hooked.dirs.home, "config.json"),
    JSON.stringify({ retry: { baseDelaySeconds: 0.01 }, hooks: { PreToolUse: noop, PostToolUse: noop } }),
  );
  try {
    const call = { name: "bash", args: { command: "echo hi" } };
    const pairs = await repeat(plan, async () => {
      const without = await toolRun(p, plain, ROUNDS, call);
      const withHooks = await toolRun(p, hooked, ROUNDS, call);
      const own: number[] = [];
      for (let i = 0; i < 10; i++) own.push(await hookProcessMs());
      const process = stats(own).median;
      return {
        without: without.wallMs,
        with: withHooks.wallMs,
        addedPerCall: (withHooks.wallMs - without.wallMs) / ROUNDS - 2 * process,
        process,
      };
    });
    return [
      {
        name: "hooks",
        metric: `${ROUNDS} bash rounds, two no-op hooks per call vs none (spawn to exit)`,
        unit: "ms",
        stats: stats(pairs.map((x) => x.with)),
        baseline: { name: "no hooks", stats: stats(pairs.map((x) => x.without)) },
        target: { kind: "ratio", value: 3, text: "<= 3x" },
      },
      {
        name: "hooks",
        metric: "added per call beyond the two hook processes' own run",
        unit: "ms",
        stats: stats(pairs.map((x) => x.addedPerCall)),
        target: { kind: "max", value: 15, text: "<= 15 ms" },
        notes: { hookProcessMs: Math.round(stats(pairs.map((x) => x.process)).median * 10) / 10 },
      },
    ];
  } finally {
    await plain.close();
    await hooked.close();
  }
}
