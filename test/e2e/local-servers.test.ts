// R-CFG-4 for a newcomer with no API key: local model servers on 127.0.0.1 are found with
// `GET /v1/models` (a short timeout), the first server in priority order that lists a model is
// used with its first model, said in one notice; `tern config check` lists what was found. The
// probed ports come from TERN_LOCAL_PROBE_PORTS because tests cannot bind the well-known ones.
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonEvents } from "../support/cli.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiText } from "../support/openai-script.js";
import { useE2E } from "./tools-support.js";

const e = useE2E();
let second: FakeProvider;
beforeEach(async () => {
  second = await FakeProvider.start();
});
afterEach(async () => {
  await second.close();
});

const modelList = (...ids: string[]) => ({
  status: 200,
  body: JSON.stringify({ object: "list", data: ids.map((id) => ({ id, object: "model", owned_by: "me" })) }),
});

/** A port nothing listens on: the probe's connection is refused. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe("local model servers when no API key is set", () => {
  it("uses the first server that lists a model, with its first model, and says so once", async () => {
    const dead = await deadPort();
    // Ollama is first in priority but not running; LM Studio lists nothing; llama.cpp has two models.
    e.provider.enqueue(modelList());
    second.enqueue(modelList("qwen3-8b", "gemma-3"), openaiText("hello from local"));
    const ports = `ollama:${dead},lmstudio:${e.provider.port},llamacpp:${second.port}`;
    const result = await e.run(["run", "--json", "say hi"], { TERN_LOCAL_PROBE_PORTS: ports });
    expect(result.code, result.stderr).toBe(0);
    const events = jsonEvents(result.stdout);
    const notices = events.filter((ev) => ev.type === "notice").map((ev) => ev.text);
    const chosen = notices.filter((text) => text.includes("llama.cpp"));
    expect(chosen).toEqual([
      "no model configured and no API key found; using llamacpp/qwen3-8b (first of 2 models) from the llama.cpp server at " +
        `http://127.0.0.1:${second.port}/v1`,
    ]);
    expect(events.find((ev) => ev.type === "session").model).toBe("llamacpp/qwen3-8b");
    expect(events.find((ev) => ev.type === "turn_end").stop_reason).toBe("completed");
    expect(e.provider.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
    expect(second.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/models",
      "POST /v1/chat/completions",
    ]);
    expect(second.requests[1].body.model).toBe("qwen3-8b");
  });

  it("with no server found, still says in one line how to set a key (exit 2)", async () => {
    const result = await e.run(["run", "hi"], { TERN_LOCAL_PROBE_PORTS: `ollama:${await deadPort()}` });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/no model configured and no API key found/);
  });

  it("does not probe when a key is set", async () => {
    e.provider.enqueue(modelList("would-be-local"));
    second.enqueue(openaiText("from the configured server"));
    const result = await e.run(
      ["run", "--json", "--base-url", second.baseUrl, "--model", "openai/mock-1", "hi"],
      {
        OPENAI_API_KEY: "sk-test",
        TERN_LOCAL_PROBE_PORTS: `ollama:${e.provider.port}`,
      },
    );
    expect(result.code).toBe(0);
    expect(e.provider.requests).toEqual([]);
    expect(result.stdout).not.toContain("would-be-local");
  });

  it("config check lists what it found", async () => {
    const dead = await deadPort();
    e.provider.enqueue(modelList("llama3:latest", "qwen3:4b"));
    second.enqueue(modelList());
    const ports = `ollama:${e.provider.port},lmstudio:${second.port},vllm:${dead}`;
    const result = await e.run(["config", "check"], { TERN_LOCAL_PROBE_PORTS: ports });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Local model servers (GET /v1/models on 127.0.0.1):");
    expect(result.stdout).toContain(
      `Ollama (port ${e.provider.port}): ollama/llama3:latest, ollama/qwen3:4b`,
    );
    expect(result.stdout).toContain(`LM Studio (port ${second.port}): running, no models`);
    expect(result.stdout).toContain(`vLLM (port ${dead}): not found`);
  });
});
