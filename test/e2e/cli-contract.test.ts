// The command-line contract (SPEC §1, §2, §10): exit codes, slash commands, bad config, model
// choice, one-line errors and no stack traces for user mistakes, nothing written on failure.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonEvents } from "../support/cli.js";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
const { run } = e;
const mock = () => ["--model", "openai/mock-1", "--base-url", e.provider.baseUrl];

function expectOneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe("R-CLI-1 slash commands", () => {
  it("rejects a prompt that is a slash command with exit 2", async () => {
    for (const prompt of ["/compact", "/btw what is this"]) {
      const result = await run(["run", ...mock(), prompt]);
      expect(result.code).toBe(2);
      expectOneLineError(result.stderr, /slash command/);
    }
    expect(e.provider.requests).toHaveLength(0);
  });

  it("accepts a prompt that starts with a path", async () => {
    e.provider.enqueue(openaiText("fine"));
    const result = await run(["run", ...mock(), "/usr/bin/x fails"]);
    expect(result.code).toBe(0);
    expect(e.provider.requests[0].body.messages.at(-1).content).toBe("/usr/bin/x fails");
  });
});

describe("R-CLI-2 exit codes and stop reasons", () => {
  it("exits 3 with output_truncated on a length finish and prints the partial text", async () => {
    e.provider.enqueue(openaiStream().text("partial").finish("length").build());
    const result = await run(["run", ...mock(), "hi"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("partial\n");
    expect(result.stderr).toContain("output_truncated");
  });

  it("exits 3 with content_filtered", async () => {
    e.provider.enqueue(openaiStream().text("no").finish("content_filter").build());
    const result = await run(["run", "--json", ...mock(), "hi"]);
    expect(result.code).toBe(3);
    expect(jsonEvents(result.stdout).find((e) => e.type === "turn_end").stop_reason).toBe("content_filtered");
  });

  it("exits 1 on an unexpected finish reason with the spec's message", async () => {
    e.provider.enqueue(openaiStream().text("x").finish("weird_reason").build());
    const result = await run(["run", "--json", ...mock(), "hi"]);
    expect(result.code).toBe(1);
    const events = jsonEvents(result.stdout);
    expect(events.find((e) => e.type === "error").message).toBe(
      "Model stopped with finish reason 'weird_reason'",
    );
    expect(events.find((e) => e.type === "turn_end")).toMatchObject({ stop_reason: "failed" });
  });

  it("exits 2 for an unknown option and for a missing prompt", async () => {
    const unknown = await run(["run", "--no-such-flag", "hi"]);
    expect(unknown.code).toBe(2);
    expectOneLineError(unknown.stderr, /unknown option '--no-such-flag'.*tern --help/);
    const typo = await run(["run", "--modle", "x", "hi"]);
    expect(typo.code).toBe(2);
    expectOneLineError(typo.stderr, /unknown option '--modle' \(Did you mean (one of --mode, )?--model\?\)/);
    const missing = await run(["fork"]);
    expect(missing.code).toBe(2);
    expectOneLineError(missing.stderr, /missing required argument 'id'/);
    const empty = await run(["run", ...mock()]);
    expect(empty.code).toBe(2);
    expectOneLineError(empty.stderr, /needs a prompt/);
  });
});

describe("R-CLI-3 --json events", () => {
  it("uses snake_case names only and prints nothing else on stdout", async () => {
    e.provider.enqueue(
      openaiStream()
        .reasoning("think")
        .text("hello")
        .finish("stop")
        .usage({ prompt_tokens: 7, completion_tokens: 3, cached_tokens: 2 })
        .build(),
    );
    const result = await run(["run", "--json", ...mock(), "hi"]);
    expect(result.code).toBe(0);
    const events = jsonEvents(result.stdout);
    const types = events.map((e) => e.type);
    expect(types).toEqual([
      "session",
      "notice",
      "turn_start",
      "round_start",
      "reasoning_delta",
      "text_delta",
      "usage",
      "assistant_message",
      "turn_end",
    ]);
    const keys = (value: unknown): string[] =>
      value && typeof value === "object" ? Object.entries(value).flatMap(([k, v]) => [k, ...keys(v)]) : [];
    for (const event of events)
      for (const key of keys(event)) if (!/^\d+$/.test(key)) expect(key).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(events.find((e) => e.type === "usage")).toEqual({
      type: "usage",
      prompt: 7,
      completion: 3,
      cache_read: 2,
      cache_write: 0,
    });
    expect(events.find((e) => e.type === "assistant_message")).toEqual({
      type: "assistant_message",
      text: "hello",
      reasoning: "think",
      tool_calls: [],
      finish_reason: "stop",
    });
  });
});

describe("configuration errors (R-CFG-1) and model choice (R-CFG-4)", () => {
  it("names the file and key path, exits 2 and writes nothing", async () => {
    mkdirSync(join(e.dirs.workspace, ".tern"));
    writeFileSync(
      join(e.dirs.workspace, ".tern/config.json"),
      JSON.stringify({ executionBudget: { maximumModelCalls: -1 } }),
    );
    const result = await run(["run", ...mock(), "hi"], { OPENAI_API_KEY: "x" });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /^tern: \.tern\/config\.json: executionBudget\.maximumModelCalls: /);
    expect(readdirSync(e.dirs.home)).toEqual([]);
    expect(e.provider.requests).toHaveLength(0);
  });

  it("says how to set a key when no model can be chosen", async () => {
    const result = await run(["run", "hi"]);
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /API_KEY|base-url/);
    expect(existsSync(join(e.dirs.home, "sessions"))).toBe(false);
  });

  it("says which variable to set when the provider's key is missing, never echoing keys", async () => {
    const result = await run(["run", "--model", "anthropic/claude-sonnet-4-5", "hi"], {
      OPENAI_API_KEY: "sk-secret-value-123",
    });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /ANTHROPIC_API_KEY/);
    expect(result.stderr).not.toContain("sk-secret-value-123");
  });

  it("rejects a model string that is not provider/model", async () => {
    const result = await run(["run", "--model", "gpt4", "hi"], { OPENAI_API_KEY: "x" });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /gpt4/);
  });

  it("creates an ad-hoc OpenAI-compatible provider from --base-url with <ID>_API_KEY", async () => {
    e.provider.enqueue(openaiText("local answer"));
    const result = await run(["run", "--base-url", e.provider.baseUrl, "--model", "local/qwen3", "hi"], {
      LOCAL_API_KEY: "k-local",
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("local answer\n");
    expect(e.provider.requests[0].path).toBe("/v1/chat/completions");
    expect(e.provider.requests[0].headers.authorization).toBe("Bearer k-local");
    expect(e.provider.requests[0].body.model).toBe("qwen3");
  });

  it("adds /v1 to a base URL given without it", async () => {
    e.provider.enqueue(openaiText("ok"));
    const result = await run(["run", "--base-url", e.provider.url, "--model", "local/m", "hi"]);
    expect(result.code).toBe(0);
    expect(e.provider.requests[0].path).toBe("/v1/chat/completions");
  });

  it("config check prints values with their sources", async () => {
    writeUserConfig(e, { bashTimeoutSeconds: 42 });
    const result = await run(["config", "check"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/bashTimeoutSeconds = 42\s+\[.*config\.json\]/);
    expect(result.stdout).toMatch(/retry\.maxRetries = 5\s+\[default\]/);
  });
});

describe("sessions", () => {
  it("fails with one line and exit 2 for an unknown session id", async () => {
    const result = await run(["run", ...mock(), "--resume", "nope", "hi"], { OPENAI_API_KEY: "x" });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /no session 'nope'/);
  });

  it("refuses an empty --resume id in one line, exit 2, without starting a session", async () => {
    const result = await run(["run", ...mock(), "--resume", "", "hi"], { OPENAI_API_KEY: "x" });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /--resume needs a session id/);
    expect(existsSync(join(e.dirs.home, "sessions"))).toBe(false);
  });

  it("names the file and line of a record line that is out of place (a result deleted), exit 2", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        { id: "a", name: "read_file", args: { path: "x.txt" } },
        { id: "b", name: "read_file", args: { path: "x.txt" } },
      ]),
      openaiText("done"),
    );
    writeFileSync(join(e.dirs.workspace, "x.txt"), "x\n");
    expect((await run(["run", ...mock(), "first"], { OPENAI_API_KEY: "x" })).code).toBe(0);
    const sessions = join(e.dirs.home, "sessions");
    const [workspace] = readdirSync(sessions);
    const [id] = readdirSync(join(sessions, workspace));
    const file = join(sessions, workspace, id, "record.jsonl");
    const lines = readFileSync(file, "utf8").split("\n");
    const cut = lines.findIndex((l) => l.includes('"type":"tool_result"') && l.includes('"id":"b"'));
    lines.splice(cut, 1);
    writeFileSync(file, lines.join("\n"));
    const result = await run(["run", ...mock(), "--continue", "again"], { OPENAI_API_KEY: "x" });
    expect(result.code).toBe(2);
    const next = lines.findIndex((l, i) => i >= cut && l.trim() !== "");
    expectOneLineError(result.stderr, new RegExp(`record\\.jsonl: line ${next + 1}: `));
  });

  it("refuses a record with a corrupt middle line in one line naming file and line, exit 2", async () => {
    e.provider.enqueue(openaiText("one"), openaiText("two"));
    expect((await run(["run", ...mock(), "first"])).code).toBe(0);
    const sessions = join(e.dirs.home, "sessions");
    const [workspace] = readdirSync(sessions);
    const [id] = readdirSync(join(sessions, workspace));
    const file = join(sessions, workspace, id, "record.jsonl");
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = "{not json";
    writeFileSync(file, lines.join("\n"));
    const result = await run(["run", ...mock(), "--continue", "again"]);
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /record\.jsonl: line 3: /);
    expect(e.provider.requests).toHaveLength(1);
  });

  it("--continue without a session says so", async () => {
    const result = await run(["run", ...mock(), "--continue", "hi"]);
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr, /no session to continue/);
  });

  it("--version prints the version fast path", async () => {
    const result = await run(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
