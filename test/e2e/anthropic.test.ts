// Anthropic Messages end to end through the built CLI: multi-round tool use with thinking, the
// exact tool results sent back as tool_result blocks, cache usage in events, turn_end and the
// ledger, and cost from the catalogue's claude-sonnet-4-5 prices (R-PROV-6, R-PROV-7).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonEvents } from "../support/cli.js";
import { anthropicError, anthropicStream } from "../support/anthropic-script.js";
import { useE2E } from "./tools-support.js";

const e = useE2E({
  config: ({ provider }) => ({
    retry: { maxRetries: 2, baseDelaySeconds: 0.01, jitter: 0 },
    providers: { anth: { api: "anthropic-messages", baseUrl: provider.baseUrl, apiKeyEnv: "ANTH_KEY" } },
  }),
});
const { run } = e;

/** USD per million tokens of anthropic/claude-sonnet-4-5 in the catalogue. */
const PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const cost = (u: { prompt: number; completion: number; cache_read: number; cache_write: number }) =>
  ((u.prompt - u.cache_read - u.cache_write) * PRICE.input +
    u.cache_read * PRICE.cacheRead +
    u.cache_write * PRICE.cacheWrite +
    u.completion * PRICE.output) /
  1_000_000;

/** Every file under `dir` (record, meta, ledger.db…) whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) hits.push(...filesContaining(path, needle));
    else if (readFileSync(path).includes(needle)) hits.push(path);
  }
  return hits;
}

describe("tern run against an Anthropic Messages server", () => {
  it("runs multi-round tool use with thinking, caches, and prices the turn", async () => {
    writeFileSync(join(e.dirs.workspace, "notes.txt"), "alpha\nbeta\n");
    e.provider.enqueue(
      anthropicStream()
        .thinking("I should look around.", "sig-round-1", ["I should ", "look around."])
        .text("Looking.")
        .toolUse({ id: "toolu_1", name: "bash", input: { command: "echo from-bash" } })
        .toolUse({ id: "toolu_2", name: "read_file", input: { path: "notes.txt" } })
        .stop("tool_use")
        .usage({
          input_tokens: 100,
          output_tokens: 20,
          cache_creation_input_tokens: 1000,
          cache_read_input_tokens: 0,
        })
        .build(),
      anthropicStream()
        .thinking("Now count lines.", "sig-round-2")
        .toolUse({
          id: "toolu_3",
          name: "bash",
          input: { command: "wc -l < notes.txt" },
          chunks: ['{"comm', 'and": "wc -l < notes.txt"}'],
        })
        .stop("tool_use")
        .usage({
          input_tokens: 50,
          output_tokens: 10,
          cache_creation_input_tokens: 200,
          cache_read_input_tokens: 1000,
        })
        .build(),
      anthropicStream()
        .text("The file has ", ["The file has "])
        .text("2 lines.")
        .stop("end_turn")
        .usage({
          input_tokens: 30,
          output_tokens: 8,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 1200,
        })
        .build(),
    );
    const result = await run(
      [
        "run",
        "--json",
        "--yes",
        "--model",
        "anthropic/claude-sonnet-4-5",
        "--base-url",
        e.provider.url,
        "count lines",
      ],
      { ANTHROPIC_API_KEY: "sk-ant-test-secret" },
    );
    expect(result.stderr).toBe("");
    expect(result.code, result.stderr).toBe(0);
    const events = jsonEvents(result.stdout);

    // Wire: POST <base>/v1/messages (the /v1 added to a bare base URL), key in x-api-key.
    expect(e.provider.requests).toHaveLength(3);
    for (const r of e.provider.requests) {
      expect(r.path).toBe("/v1/messages");
      expect(r.headers["x-api-key"]).toBe("sk-ant-test-secret");
      expect(r.headers["anthropic-version"]).toBe("2023-06-01");
      expect(r.body.model).toBe("claude-sonnet-4-5");
    }
    const first = e.provider.requests[0].body;
    expect(first.system[0].cache_control).toEqual({ type: "ephemeral" });
    expect(first.tools.at(-1).cache_control).toEqual({ type: "ephemeral" });

    // Round 2's request: the assistant turn echoes the signed thinking, the text and the calls;
    // the next user message holds the exact tool results as tool_result blocks.
    const results = Object.fromEntries(
      events.filter((e) => e.type === "tool_result").map((e) => [e.id, e.content]),
    );
    expect(results.toolu_1).toContain("from-bash");
    expect(results.toolu_2).toMatch(/1\talpha\n\s+2\tbeta/);
    expect(results.toolu_3.trim()).toMatch(/^2$/m);
    const second = e.provider.requests[1].body.messages;
    expect(second.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(second[1].content.slice(0, 2)).toEqual([
      { type: "thinking", thinking: "I should look around.", signature: "sig-round-1" },
      { type: "text", text: "Looking." },
    ]);
    expect(second[1].content.slice(2)).toEqual([
      { type: "tool_use", id: "toolu_1", name: "bash", input: { command: "echo from-bash" } },
      { type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "notes.txt" } },
    ]);
    const toolResults = second[2].content;
    expect(toolResults.map((b: any) => [b.type, b.tool_use_id, b.is_error])).toEqual([
      ["tool_result", "toolu_1", false],
      ["tool_result", "toolu_2", false],
    ]);
    expect(toolResults[0].content).toEqual([{ type: "text", text: results.toolu_1 }]);
    expect(toolResults[1].content).toEqual([{ type: "text", text: results.toolu_2 }]);
    // R-PROV-7: the breakpoint on the last message's last block.
    expect(toolResults[1].cache_control).toEqual({ type: "ephemeral" });
    const third = e.provider.requests[2].body.messages;
    expect(third).toHaveLength(5);
    expect(third[3].content[0]).toEqual({
      type: "thinking",
      thinking: "Now count lines.",
      signature: "sig-round-2",
    });
    expect(third[4].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_3" });
    expect(third[4].content[0].content).toEqual([{ type: "text", text: results.toolu_3 }]);

    // Reasoning streamed, final text reported.
    expect(
      events
        .filter((e) => e.type === "reasoning_delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("I should look around.Now count lines.");
    expect(events.filter((e) => e.type === "assistant_message").at(-1)).toMatchObject({
      text: "The file has 2 lines.",
      finish_reason: "stop",
    });

    // Usage: prompt = input + cache_read + cache_creation (R-PROV-6), one event per request.
    const usages = events.filter((e) => e.type === "usage").map(({ type: _t, ...u }) => u);
    expect(usages).toEqual([
      { prompt: 1100, completion: 20, cache_read: 0, cache_write: 1000 },
      { prompt: 1250, completion: 10, cache_read: 1000, cache_write: 200 },
      { prompt: 1230, completion: 8, cache_read: 1200, cache_write: 0 },
    ]);
    const total = { prompt: 3580, completion: 38, cache_read: 2200, cache_write: 1200 };
    const end = events.find((e) => e.type === "turn_end");
    expect(end).toMatchObject({
      stop_reason: "completed",
      rounds: 3,
      model_calls: 3,
      tool_calls: 3,
      usage: total,
    });
    // (180 × 3 + 2200 × 0.3 + 1200 × 3.75 + 38 × 15) / 1e6
    expect(end.cost).toBeCloseTo(cost(total), 12);
    expect(end.cost).toBeCloseTo(0.00627, 12);

    // The ledger has the same numbers.
    const metrics = await run(["metrics", "--json"], {});
    expect(metrics.code, metrics.stderr).toBe(0);
    const ledger = JSON.parse(metrics.stdout);
    expect(ledger.rows).toHaveLength(1);
    expect(ledger.rows[0]).toMatchObject({
      turn: 1,
      stopReason: "completed",
      prompt: 3580,
      completion: 38,
      cacheRead: 2200,
      cacheWrite: 1200,
      billedInput: 3580 - 2200,
    });
    expect(ledger.rows[0].cost).toBeCloseTo(0.00627, 12);
    expect(ledger.totals[0]).toMatchObject({ cacheRead: 2200, cacheWrite: 1200 });

    // The key never lands on disk.
    expect(filesContaining(e.dirs.home, "sk-ant-test-secret")).toEqual([]);

    // Without --json only the final text reaches stdout.
    e.provider.enqueue(anthropicStream().text("Plain answer.").build());
    const plain = await run(
      ["run", "--continue", "--model", "anthropic/claude-sonnet-4-5", "--base-url", e.provider.url, "and?"],
      { ANTHROPIC_API_KEY: "sk-ant-test-secret" },
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toBe("Plain answer.\n");
    // The resumed request replays the signed thinking of the first turn.
    const replay = e.provider.requests[3].body.messages;
    expect(replay[1].content[0]).toMatchObject({ type: "thinking", signature: "sig-round-1" });
    expect(readFileSync(join(e.dirs.workspace, "notes.txt"), "utf8")).toBe("alpha\nbeta\n");
  });

  it("uses a provider configured in config.json with its own key variable", async () => {
    e.provider.enqueue(anthropicStream().text("Configured provider works.").build());
    const result = await run(["run", "--json", "--model", "anth/claude-sonnet-4-5", "hi"], {
      ANTH_KEY: "anth-secret-key",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(e.provider.requests).toHaveLength(1);
    expect(e.provider.requests[0].path).toBe("/v1/messages");
    expect(e.provider.requests[0].headers["x-api-key"]).toBe("anth-secret-key");
    const events = jsonEvents(result.stdout);
    expect(events.find((e) => e.type === "assistant_message")).toMatchObject({
      text: "Configured provider works.",
    });
  });

  it("retries an overloaded 529 and an in-stream overloaded error, then answers once", async () => {
    e.provider.enqueue(
      anthropicError(529, "overloaded_error", "Overloaded"),
      anthropicStream().text("LOST-TEXT").errorEvent("overloaded_error", "Overloaded").build(),
      anthropicStream().text("Final.").build(),
    );
    const result = await run(["run", "--json", "--model", "anth/claude-sonnet-4-5", "hi"], {
      ANTH_KEY: "k",
    });
    expect(result.code, result.stderr).toBe(0);
    const events = jsonEvents(result.stdout);
    expect(events.filter((e) => e.type === "retry_scheduled").map((e) => [e.reason, e.status])).toEqual([
      ["overloaded", 529],
      ["overloaded", 529],
    ]);
    expect(events.filter((e) => e.type === "stream_discarded")).toEqual([
      { type: "stream_discarded", round: 1, attempt: 2 },
    ]);
    expect(events.filter((e) => e.type === "assistant_message").map((e) => e.text)).toEqual(["Final."]);
    // The in-stream error came after message_start, so that attempt's usage counts too.
    expect(events.filter((e) => e.type === "usage")).toHaveLength(2);
  });
});
