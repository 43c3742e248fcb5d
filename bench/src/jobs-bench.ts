// A background job that floods output while the turn goes on (R-JOB-1): 100 MB printed over
// about 20 s (a third of the minute, so the row stays short: the rate, three times the
// issue's, is what would make memory grow), read every 2 s by job_output rounds. tern's RSS is
// sampled from /proc every 100 ms; its growth over the moment the job started is the figure.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import {
  expectExit,
  MB,
  type Paths,
  type Plan,
  onRequest,
  procStatusBytes,
  repeat,
  scene,
  spawnNode,
  stats,
} from "./harness.js";
import type { Row } from "./rows.js";

const TOTAL_MB = 100;
const SECONDS = 20;
// 100 chunks of 1 MB of 100-character lines, one every SECONDS/100 s.
const FLOOD = `
const line = "x".repeat(99) + "\\n";
const chunk = line.repeat(Math.floor(${MB} / line.length));
let sent = 0;
const timer = setInterval(() => {
  process.stdout.write(chunk);
  if (++sent === ${TOTAL_MB}) { clearInterval(timer); console.log("flood done"); }
}, ${(SECONDS * 1000) / TOTAL_MB});
`;

export async function jobFloodBench(p: Paths, plan: Plan): Promise<Row[]> {
  const reads = SECONDS / 2 + 2;
  const runs = await repeat({ warmup: 0, runs: plan.heavyRuns }, async () => {
    const s = await scene();
    try {
      writeFileSync(join(s.dirs.workspace, "flood.js"), FLOOD);
      s.provider.enqueue(
        openaiToolCalls([
          { id: "start", name: "bash", args: { command: "node flood.js", run_in_background: true } },
        ]),
      );
      for (let i = 1; i <= reads; i++)
        s.provider.enqueue(
          openaiToolCalls([
            { id: `read_${i}`, name: "job_output", args: { id: "job-1", timeout_seconds: 2 } },
          ]),
        );
      s.provider.enqueue(
        openaiToolCalls([{ id: "end", name: "job_output", args: { id: "job-1", timeout_seconds: 120 } }]),
        openaiText("Finished."),
      );
      let pid = 0;
      let baseline: number | undefined;
      let peak = 0;
      onRequest(s.provider, (n) => {
        if (n === 2) baseline = procStatusBytes(pid, "VmRSS");
      });
      const sampler = setInterval(() => {
        const rss = baseline === undefined ? undefined : procStatusBytes(pid, "VmRSS");
        if (rss !== undefined) peak = Math.max(peak, rss);
      }, 100);
      const r = await spawnNode(p, [p.bin, "run", "--yes", ...s.modelArgs, "go"], {
        cwd: s.dirs.workspace,
        env: s.env,
        onSpawn: (childPid) => (pid = childPid),
        timeoutMs: 300_000,
      });
      clearInterval(sampler);
      expectExit(r, "tern run (job flood)");
      const last = s.provider.requests[s.provider.requests.length - 1].body;
      const end = [...last.messages].reverse().find((m: any) => m.role === "tool");
      if (!/job-1 exited 0/.test(String(end?.content)))
        throw new Error(`the flood job did not end as expected: ${String(end?.content).slice(0, 300)}`);
      if (baseline === undefined) throw new Error("job flood: /proc/<pid>/status is needed (Linux)");
      return { growth: Math.max(0, peak - baseline) / MB, baseline: baseline / MB };
    } finally {
      await s.close();
    }
  });
  return [
    {
      name: "job flood",
      metric: `RSS growth while a job prints ${TOTAL_MB} MB over ${SECONDS} s (job_output every 2 s)`,
      unit: "MB",
      stats: stats(runs.map((x) => x.growth)),
      target: { kind: "max", value: 20, text: "<= 20 MB" },
      notes: { medianRssAtJobStartMB: stats(runs.map((x) => x.baseline)).median },
    },
  ];
}
