// A round's own cost early and late in one long turn, per wire: 200 `read_file` rounds in one
// `tern run --yes`, each round timed between the fake provider's receipt of request n and of
// request n+1 (wall), and by the child's CPU over the same span (the sum of its threads' scheduled
// time in /proc/<pid>/task/*/schedstat, in ns, read at each receipt). Rounds 181–200 against
// 2–21: a round whose cost grows with the conversation shows as a ratio above 1.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicStream } from "../../test/support/anthropic-script.js";
import type { ScriptedResponse } from "../../test/support/fake-provider.js";
import { openaiText, openaiToolCalls } from "../../test/support/openai-script.js";
import { responsesStream } from "../../test/support/responses-script.js";
import { expectExit, onRequest, type Paths, type Plan, repeat, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";
import { sourceFile } from "./tool-loop-benches.js";

/** CPU the process's threads have run, in ms (Linux; undefined elsewhere). */
export function threadsCpuMs(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const line = readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8");
      ns += Number(line.split(" ")[0]);
    }
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

interface Wire {
  name: string;
  api: string;
  call(id: string): ScriptedResponse;
  text(text: string): ScriptedResponse;
}

const ARGS = { path: "notes.ts" };
const WIRES: Wire[] = [
  {
    name: "openai-chat",
    api: "openai-chat",
    call: (id) => openaiToolCalls([{ id, name: "read_file", args: ARGS }]),
    text: (text) => openaiText(text),
  },
  {
    name: "anthropic",
    api: "anthropic-messages",
    call: (id) => anthropicStream().toolUse({ id, name: "read_file", input: ARGS }).stop("tool_use").build(),
    text: (text) => anthropicStream().text(text).build(),
  },
  {
    name: "responses",
    api: "openai-responses",
    call: (id) => responsesStream().functionCall({ callId: id, name: "read_file", args: ARGS }).build(),
    text: (text) => responsesStream().text(text).build(),
  },
];

export async function roundCostBench(p: Paths, plan: Plan): Promise<Row[]> {
  const rounds = 200;
  const rows: Row[] = [];
  for (const wire of WIRES) {
    const s = await scene();
    try {
      writeFileSync(join(s.dirs.workspace, "notes.ts"), `${sourceFile(40)}\n`);
      writeFileSync(
        join(s.dirs.home, "config.json"),
        JSON.stringify({
          retry: { baseDelaySeconds: 0.01 },
          providers: { bench: { api: wire.api, baseUrl: s.provider.baseUrl, apiKeyEnv: "OPENAI_API_KEY" } },
        }),
      );
      let pid = 0;
      let marks: { wall: number; cpu: number | undefined }[] = [];
      let base = 0;
      onRequest(s.provider, (n) => {
        marks[n - 1 - base] = { wall: Number(process.hrtime.bigint()) / 1e6, cpu: threadsCpuMs(pid) };
      });
      const runs = await repeat(plan, async () => {
        marks = [];
        base = s.provider.requests.length;
        for (let i = 1; i <= rounds; i++) s.provider.enqueue(wire.call(`call_${i}`));
        s.provider.enqueue(wire.text("Finished."));
        const limit = String(rounds + 10);
        const r = await spawnNode(
          p,
          [
            p.bin,
            "run",
            "--yes",
            "--model",
            "bench/bench-1",
            "--max-model-calls",
            limit,
            "--max-tool-calls",
            limit,
            "go",
          ],
          { cwd: s.dirs.workspace, env: s.env, onSpawn: (child) => (pid = child) },
        );
        expectExit(r, `tern run (${rounds} read_file rounds over ${wire.name})`);
        if (s.provider.requests.length - base !== rounds + 1 || s.provider.pending !== 0)
          throw new Error(
            `${wire.name}: expected ${rounds + 1} requests, the provider saw ${s.provider.requests.length - base}`,
          );
        // marks[i] is request i+1's arrival; round i+1 is request i+1 → request i+2.
        const span = (from: number, to: number, of: "wall" | "cpu") => {
          const out: number[] = [];
          for (let i = from - 1; i < to; i++) {
            const a = marks[i]?.[of];
            const b = marks[i + 1]?.[of];
            if (a !== undefined && b !== undefined) out.push(b - a);
          }
          return stats(out).median;
        };
        return {
          earlyWall: span(2, 21, "wall"),
          lateWall: span(rounds - 19, rounds, "wall"),
          earlyCpu: span(2, 21, "cpu"),
          lateCpu: span(rounds - 19, rounds, "cpu"),
        };
      });
      const pick = (k: keyof (typeof runs)[number]) => stats(runs.map((r) => r[k]));
      rows.push({
        name: "round cost",
        metric: `${wire.name}: CPU a round, rounds ${rounds - 19}–${rounds} vs 2–21 (${rounds} read_file rounds)`,
        unit: "ms",
        stats: pick("lateCpu"),
        baseline: { name: "rounds 2–21", stats: pick("earlyCpu") },
        target: { kind: "ratio", value: 1.1, text: "<= 1.1x" },
        notes: { medianWallEarlyMs: pick("earlyWall").median, medianWallLateMs: pick("lateWall").median },
      });
    } finally {
      await s.close();
    }
  }
  return rows;
}
