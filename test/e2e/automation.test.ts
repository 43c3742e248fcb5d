// Headless automation through the built CLI (R-AUTO-1, R-AUTO-2): `--output-schema` asks for the
// value the provider's way, validates it with a real JSON Schema validator, gives one corrective
// round, then stops `output_invalid` (exit 3); `--input-format jsonl` runs prompts from stdin as
// turns of one session, a bad line costing only a line on stderr.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { cliEnv, jsonEvents, runCli, TERN_BIN } from "../support/cli.js";
import { openaiStream, openaiText } from "../support/openai-script.js";
import { responsesStream } from "../support/responses-script.js";
import { recordLines, useE2E } from "./tools-support.js";

const e = useE2E({
  config: ({ provider }) => ({
    retry: { maxRetries: 0 },
    providers: { openai: { baseUrl: provider.baseUrl }, anthropic: { baseUrl: provider.baseUrl } },
    models: { "local/plain": { contextWindow: 32000, maxOutputTokens: 1000 } },
  }),
});
const ENV = { OPENAI_API_KEY: "sk-test-openai" };

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { verdict: { enum: ["pass", "fail"] }, count: { type: "integer", minimum: 0 } },
  required: ["verdict", "count"],
  additionalProperties: false,
};

function schemaFile(schema: unknown = SCHEMA, name = "answer.schema.json"): string {
  const path = join(e.dirs.workspace, name);
  writeFileSync(path, typeof schema === "string" ? schema : JSON.stringify(schema));
  return path;
}

const run = (args: string[], stdin?: string) =>
  runCli(args, { home: e.dirs.home, cwd: e.dirs.workspace, env: ENV, stdin });

/** A local OpenAI-compatible server: no structured output on the wire, so the schema is asked for. */
const localRun = (extra: string[]) =>
  run([
    "run",
    ...extra,
    "--model",
    "local/plain",
    "--base-url",
    e.provider.baseUrl,
    "--output-schema",
    schemaFile(),
    "check it",
  ]);

describe("tern run --output-schema", () => {
  it("Chat Completions at OpenAI: response_format json_schema, stdout the value alone", async () => {
    e.provider.enqueue(openaiText('```json\n{"verdict": "pass", "count": 3}\n```'));
    const out = await run(["run", "--model", "openai/gpt-4.1", "--output-schema", schemaFile(), "check it"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe('{"verdict":"pass","count":3}\n');
    const body = e.provider.requests[0].body;
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema: SCHEMA, strict: false },
    });
    // The wire enforces it: no instruction is added to the prompt.
    expect(JSON.stringify(body.messages)).not.toContain("JSON Schema");
  });

  it("Responses: text.format json_schema", async () => {
    e.provider.enqueue(
      responsesStream()
        .text('{"verdict":"fail","count":0}')
        .usage({ input_tokens: 10, output_tokens: 5 })
        .build(),
    );
    const out = await run(["run", "--model", "openai/gpt-5", "--output-schema", schemaFile(), "check it"]);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ verdict: "fail", count: 0 });
    expect(e.provider.requests[0].body.text).toEqual({
      format: { type: "json_schema", name: "answer", schema: SCHEMA, strict: false },
    });
  });

  it("a server without structured output gets an instruction; still invalid after one correction: output_invalid", async () => {
    e.provider.enqueue(openaiText("Sure! The verdict is pass."), openaiText('{"verdict":"pass","count":-1}'));
    const out = await localRun(["--json"]);
    // First answer is not JSON, the corrective one breaks `minimum`: stopped after one correction.
    expect(out.code, out.stderr).toBe(3);
    const events = jsonEvents(out.stdout);
    const end = events.find((ev) => ev.type === "turn_end");
    expect(end).toMatchObject({ stop_reason: "output_invalid", rounds: 2 });
    expect(end.error.class).toBe("output_invalid");
    expect(end.error.message).toContain("/count must be >= 0");
    expect(e.provider.requests).toHaveLength(2);
    const first = e.provider.requests[0].body;
    expect(first.response_format).toBeUndefined();
    const userText = JSON.stringify(first.messages.at(-1));
    expect(userText).toContain("valid against this JSON Schema");
    const second = JSON.stringify(e.provider.requests[1].body.messages.at(-1));
    expect(second).toContain("not valid against the required JSON Schema");
    expect(second).toContain("not JSON");
    expect(recordLines(e).find((l) => l.type === "turn_end").stopReason).toBe("output_invalid");
  });

  it("the corrective round can succeed: exit 0 with the corrected value", async () => {
    e.provider.enqueue(
      openaiText('{"verdict":"maybe","count":1}'),
      openaiText('{"verdict":"pass","count":1}'),
    );
    const out = await localRun([]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe('{"verdict":"pass","count":1}\n');
  });

  it("a bad schema file is one line and exit 2, before any request", async () => {
    for (const [content, expected] of [
      ["{not json", /answer\.schema\.json: not JSON/],
      ['{"type": "nonsense-type"}', /answer\.schema\.json: not a valid JSON Schema/],
      ["[1,2]", /must be an object/],
    ] as const) {
      const out = await run([
        "run",
        "--model",
        "openai/gpt-4.1",
        "--output-schema",
        schemaFile(content),
        "x",
      ]);
      expect(out.code).toBe(2);
      expect(out.stderr.trim().split("\n")).toHaveLength(1);
      expect(out.stderr).toMatch(expected);
    }
    const missing = await run(["run", "--model", "openai/gpt-4.1", "--output-schema", "nope.json", "x"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--output-schema nope.json: ENOENT");
    expect(e.provider.requests).toHaveLength(0);
  });
});

describe("tern run --input-format jsonl", () => {
  it("runs each prompt as a turn of one session, skips a bad line, exits with the last turn's code", async () => {
    e.provider.enqueue(openaiText("first answer"), openaiText("second answer"));
    const stdin = [
      JSON.stringify({ type: "prompt", content: "one" }),
      "{oops",
      JSON.stringify({ type: "wat" }),
      JSON.stringify({ type: "prompt", content: [{ type: "text", text: "two" }] }),
      "",
    ].join("\n");
    const out = await run(["run", "--model", "openai/gpt-4.1", "--input-format", "jsonl", "--json"], stdin);
    expect(out.code, out.stderr).toBe(0);
    const events = jsonEvents(out.stdout);
    expect(events.filter((ev) => ev.type === "session")).toHaveLength(1);
    expect(events.filter((ev) => ev.type === "turn_end").map((ev) => ev.turn)).toEqual([1, 2]);
    expect(out.stderr).toMatch(/stdin line 2: not JSON/);
    expect(out.stderr).toMatch(/stdin line 3: type must be "prompt" or "cancel"/);
    // The second turn's request carries the first turn: one session.
    const second = JSON.stringify(e.provider.requests[1].body.messages);
    expect(second).toContain("first answer");
    expect(second).toContain("two");
  });

  it("a cancel line ends the turn in progress; the next prompt still runs", async () => {
    // The first answer stalls after its first frame, so the cancel arrives mid-stream.
    e.provider.enqueue(openaiStream().text("slow").stallAfter(2).build(), openaiText("after"));
    const child = spawn(
      process.execPath,
      [TERN_BIN, "run", "--model", "openai/gpt-4.1", "--input-format", "jsonl", "--json"],
      {
        cwd: e.dirs.workspace,
        env: cliEnv(e.dirs.home, ENV),
      },
    );
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      if (d.includes('"text_delta"') && !child.stdin.writableEnded) {
        child.stdin.write(`${JSON.stringify({ type: "cancel" })}\n`);
        child.stdin.end(`${JSON.stringify({ type: "prompt", content: "next" })}\n`);
      }
    });
    child.stdin.write(`${JSON.stringify({ type: "prompt", content: "slow one" })}\n`);
    const code = await new Promise<number | null>((done) => child.on("close", done));
    const ends = jsonEvents(stdout).filter((ev) => ev.type === "turn_end");
    expect(ends.map((ev) => ev.stop_reason)).toEqual(["cancelled", "completed"]);
    expect(code).toBe(0);
  });

  it("prompt words with jsonl, or an unknown format, are usage errors", async () => {
    const words = await run(["run", "--input-format", "jsonl", "hello"]);
    expect(words.code).toBe(2);
    expect(words.stderr).toContain("give no prompt words");
    const format = await run(["run", "--input-format", "xml", "hello"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("--input-format must be text or jsonl");
  });
});
