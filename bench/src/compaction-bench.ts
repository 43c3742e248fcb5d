// The long-turn benchmark (SPEC §7): one `tern run` of 200 rounds, each reading a ~20 KB file, in a
// 32k-token window, on both protocols. It must complete; the table reports the largest request
// (tern's chars/4 estimate of what the fake server received; raw bytes in the notes), the number
// of compactions and the summary requests' share of all prompt tokens sent.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { playLongTurn, type Protocol } from "../../test/support/long-turn.js";
import { cliEnv } from "../../test/support/cli.js";
import { expectExit, type Paths, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

const ROUNDS = 200;
const WINDOW = 32000;
const MODEL = "fake/long-1";

interface LongRun {
  largest: number;
  rawBytes: number;
  compactions: number;
  summaries: number;
  summaryShare: number;
  wallPerRoundMs: number;
}

async function longRun(p: Paths, protocol: Protocol): Promise<LongRun> {
  const s = await scene();
  try {
    writeFileSync(
      join(s.dirs.home, "config.json"),
      JSON.stringify({
        retry: { baseDelaySeconds: 0.01 },
        providers: { fake: { api: protocol, baseUrl: s.provider.baseUrl, apiKeyEnv: "FAKE_KEY" } },
        models: { [MODEL]: { contextWindow: WINDOW } },
      }),
    );
    // 200 lines of 94 chars: with read_file's line numbers, about 20 KB per result.
    writeFileSync(join(s.dirs.workspace, "big.txt"), `${"z".repeat(94)}\n`.repeat(200));
    const steps = Array.from({ length: ROUNDS }, () => ({ name: "read_file", args: { path: "big.txt" } }));
    const measured = playLongTurn(s.provider, protocol, steps, "Finished.");
    const limit = String(ROUNDS * 2);
    const r = await spawnNode(
      p,
      [
        p.bin,
        "run",
        "--json",
        "--yes",
        "--model",
        MODEL,
        "--max-model-calls",
        limit,
        "--max-tool-calls",
        limit,
        "go",
      ],
      { cwd: s.dirs.workspace, env: cliEnv(s.dirs.home, { FAKE_KEY: "bench-key" }), timeoutMs: 600_000 },
    );
    expectExit(r, `tern run (${ROUNDS} rounds of 20 KB, ${protocol})`);
    const events = r.stdout
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    const end = events.find((e) => e.type === "turn_end");
    if (end?.stop_reason !== "completed" || end.rounds !== ROUNDS + 1 || end.tool_errors !== 0)
      throw new Error(`the long turn did not complete: ${JSON.stringify(end)}`);
    if (measured.requests !== ROUNDS + 1 + measured.summaryRequests)
      throw new Error(`expected ${ROUNDS + 1} rounds plus summaries, the provider saw ${measured.requests}`);
    return {
      largest: measured.largestEstimate,
      rawBytes: measured.largestRawBytes,
      compactions: events.filter((e) => e.type === "compaction").length,
      summaries: measured.summaryRequests,
      summaryShare: (100 * measured.summaryPromptTokens) / measured.promptTokens,
      wallPerRoundMs: r.wallMs / ROUNDS,
    };
  } finally {
    await s.close();
  }
}

export async function longTurnBench(p: Paths, plan: { heavyRuns: number }): Promise<Row[]> {
  const rows: Row[] = [];
  for (const protocol of ["openai-chat", "anthropic-messages"] as const) {
    const runs: LongRun[] = [];
    for (let i = 0; i < plan.heavyRuns; i++) runs.push(await longRun(p, protocol));
    const median = (pick: (r: LongRun) => number) => stats(runs.map(pick)).median;
    const name = `long turn ${protocol === "openai-chat" ? "openai" : "anthropic"}`;
    rows.push(
      {
        name,
        metric: `largest request, est. tokens (${ROUNDS} x 20 KB reads, ${WINDOW / 1000}k window)`,
        unit: "tokens",
        stats: stats(runs.map((r) => r.largest)),
        target: { kind: "max", value: WINDOW, text: `<= ${WINDOW}` },
        notes: {
          largestRawBytes: median((r) => r.rawBytes),
          compactions: median((r) => r.compactions),
          summaryRequests: median((r) => r.summaries),
          wallPerRoundMs: median((r) => r.wallPerRoundMs),
        },
      },
      {
        name,
        metric: "compactions in the turn",
        unit: "count",
        stats: stats(runs.map((r) => r.compactions)),
        target: { kind: "max", value: ROUNDS, text: `<= ${ROUNDS} (one per round)` },
      },
      {
        name,
        metric: "summary requests' share of prompt tokens",
        unit: "%",
        stats: stats(runs.map((r) => r.summaryShare)),
        target: { kind: "max", value: 10, text: "<= 10%" },
      },
    );
  }
  return rows;
}
