// SPEC §7 through the built CLI on both protocols: one headless turn of any length goes on. Old
// tool-call arguments are shed, the open turn's older rounds are summarized, and no request the
// fake server received is over the window — by tern's own estimator and by raw size.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonEvents, runCli } from "../support/cli.js";
import { playLongTurn, type Protocol, type ToolStep } from "../support/long-turn.js";
import { recordLines, useE2E } from "./tools-support.js";

const e = useE2E();

const MODEL: Record<Protocol, string> = {
  "openai-chat": "fake/mock-1",
  "anthropic-messages": "fake/claude-1",
};

function configure(protocol: Protocol, contextWindow: number): void {
  writeFileSync(
    join(e.dirs.home, "config.json"),
    JSON.stringify({
      retry: { maxRetries: 0, baseDelaySeconds: 0.01, jitter: 0 },
      providers: { fake: { api: protocol, baseUrl: e.provider.baseUrl, apiKeyEnv: "FAKE_KEY" } },
      models: { [MODEL[protocol]]: { contextWindow, maxOutputTokens: 1024 } },
    }),
  );
}

/** Wide margins: a hundred rounds take a few seconds alone, far more on a loaded machine. */
const RUN_TIMEOUT_MS = 180_000;

async function runLong(protocol: Protocol, prompt: string, extra: string[] = []) {
  const result = await runCli(["run", "--json", "--yes", "--model", MODEL[protocol], ...extra, prompt], {
    home: e.dirs.home,
    cwd: e.dirs.workspace,
    env: { FAKE_KEY: "k-test" },
    timeoutMs: RUN_TIMEOUT_MS,
  });
  const events = jsonEvents(result.stdout);
  return { ...result, events, end: events.find((ev) => ev.type === "turn_end") };
}

/**
 * An estimator-free bound on a request's raw size: 4 bytes per token of text plus a quarter for
 * the JSON framing of many small messages (keys, ids, escapes) that a tokenizer mostly ignores.
 */
const RAW_BYTES_PER_TOKEN = 5;

/** 8 KB of text: 80 lines of 100 chars, different per file. */
const fileBody = (i: number) => `${String(i).repeat(99).slice(0, 99)}\n`.repeat(80);

for (const protocol of ["openai-chat", "anthropic-messages"] as const) {
  describe(`one long headless turn (${protocol})`, () => {
    it(
      "writes eight 8 KB files into a 12k-token window: old write_file contents are shed, the turn completes",
      async () => {
        const window = 12000;
        configure(protocol, window);
        const steps: ToolStep[] = Array.from({ length: 8 }, (_, i) => ({
          name: "write_file",
          args: { path: `out/f${i + 1}.txt`, content: fileBody(i + 1) },
        }));
        const stats = playLongTurn(e.provider, protocol, steps);
        const run = await runLong(protocol, "write the eight files");
        expect(run.stderr).toBe("");
        expect(run.end).toMatchObject({ stop_reason: "completed", rounds: 9, tool_calls: 8, tool_errors: 0 });
        expect(run.code).toBe(0);
        for (let i = 1; i <= 8; i++)
          expect(readFileSync(join(e.dirs.workspace, `out/f${i}.txt`), "utf8")).toBe(fileBody(i));

        // Shed cut old write_file contents, in valid JSON naming turn, round and recall.
        const shed = recordLines(e).filter((l) => l.type === "compaction" && l.stage === "shed");
        expect(shed.length).toBeGreaterThan(0);
        const cutArgs = shed.flatMap((l) =>
          Object.values(l.arguments ?? {}).flatMap((a: any) => Object.values(a)),
        );
        expect(cutArgs.length).toBeGreaterThan(0);
        const parsed = JSON.parse(cutArgs[0] as string);
        expect(parsed.path).toMatch(/^out\/f\d\.txt$/);
        expect(parsed.content).toMatch(
          /\[shed by compaction: \d+ more chars of this write_file content from turn 1 round \d; recall \{"turn": 1, "round": \d\} reads the call in full\]$/,
        );

        // No request over the window, by tern's estimator and by raw size.
        expect(stats.requests).toBe(9 + stats.summaryRequests);
        expect(stats.largestEstimate).toBeLessThanOrEqual(window);
        expect(stats.largestRawBytes).toBeLessThanOrEqual(window * RAW_BYTES_PER_TOKEN);

        // The compacted record resumes: the next turn is sent and completes.
        const again = playLongTurn(e.provider, protocol, [], "resumed fine");
        const next = await runLong(protocol, "and now?", ["--continue"]);
        expect(next.end).toMatchObject({ stop_reason: "completed" });
        expect(next.code).toBe(0);
        expect(again.largestEstimate).toBeLessThanOrEqual(window);
      },
      2 * RUN_TIMEOUT_MS,
    );

    it(
      "goes on when one batch's own results are bigger than the window: they are cut to fit and paged with recall",
      async () => {
        const window = 12000;
        configure(protocol, window);
        for (const n of [1, 2, 3, 4])
          writeFileSync(join(e.dirs.workspace, `log${n}.txt`), `${String(n).repeat(99)}\n`.repeat(400));
        const stats = playLongTurn(e.provider, protocol, [
          [1, 2, 3, 4].map((n) => ({ name: "read_file", args: { path: `log${n}.txt` } })),
          { name: "recall", args: { turn: 1, round: 1 } },
        ]);
        const run = await runLong(protocol, "read the four logs");
        expect(run.stderr).toBe("");
        expect(run.end).toMatchObject({ stop_reason: "completed", rounds: 3, tool_calls: 5, tool_errors: 0 });
        // The first compaction cut the batch's own results (a later one shed them as old).
        const cut = recordLines(e).filter((l) => l.type === "compaction");
        expect(Object.values(cut[0].placeholders).join("\n")).toMatch(
          /more chars of this read_file result left out, more than the context window has room for; recall \{"turn": 1, "round": 1\} reads this round in pages\]$/,
        );
        const recalled = run.events.find((ev) => ev.type === "tool_result" && ev.name === "recall");
        expect(recalled.content).toMatch(
          /\[page: chars 0–\d+ of \d+; recall \{"turn": 1, "round": 1, "offset": \d+\} reads the next page\]$/,
        );
        expect(stats.largestEstimate).toBeLessThanOrEqual(window);
        expect(stats.largestRawBytes).toBeLessThanOrEqual(window * RAW_BYTES_PER_TOKEN);
      },
      RUN_TIMEOUT_MS,
    );

    it(
      "runs 100 rounds of 20 KB tool outputs in one turn: the open turn's older rounds are summarized",
      async () => {
        const window = 12000;
        configure(protocol, window);
        writeFileSync(join(e.dirs.workspace, "big.txt"), `${"y".repeat(99)}\n`.repeat(200));
        const steps: ToolStep[] = Array.from({ length: 100 }, () => ({
          name: "read_file",
          args: { path: "big.txt" },
        }));
        const stats = playLongTurn(e.provider, protocol, steps);
        const run = await runLong(protocol, "read it many times");
        expect(run.stderr).toBe("");
        expect(run.end).toMatchObject({
          stop_reason: "completed",
          rounds: 101,
          tool_calls: 100,
          tool_errors: 0,
        });
        expect(run.code).toBe(0);

        const lines = recordLines(e);
        const summaries = lines.filter((l) => l.type === "compaction" && l.stage === "summarize");
        expect(summaries.length).toBeGreaterThan(0);
        expect(stats.summaryRequests).toBe(summaries.length);
        // The summary stands after the turn's prompt, which stays verbatim: its range starts later.
        const prompt = lines.find((l) => l.type === "user_prompt");
        for (const s of summaries) expect(s.fromSeq).toBeGreaterThan(prompt.seq);
        expect(summaries[0].summary).toMatch(/^\[Summary of turn 1 rounds 1–\d+, written by compaction/);

        expect(stats.largestEstimate).toBeLessThanOrEqual(window);
        expect(stats.largestRawBytes).toBeLessThanOrEqual(window * RAW_BYTES_PER_TOKEN);

        // Resume folds the compaction records that cover part of that (then open) turn.
        playLongTurn(e.provider, protocol, [], "resumed fine");
        const next = await runLong(protocol, "and now?", ["--continue"]);
        expect(next.end).toMatchObject({ stop_reason: "completed" });
      },
      2 * RUN_TIMEOUT_MS,
    );
  });
}
