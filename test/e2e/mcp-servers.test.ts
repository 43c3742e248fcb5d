// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values name ${VAR} literally
// MCP servers through `tern run` (R-EXT, R-TOOL-6): a Streamable HTTP server with `${VAR}`
// headers, bounded results, errors without the server's stderr, progress as events, a slow
// server waited for before the first request, and SIGTERM closing the servers.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, jsonEvents, TERN_BIN } from "../support/cli.js";
import { startFixtureServer } from "../support/fixture-server.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const RAW_SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-raw-server.mjs");
const e = useE2E();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

/** Starts the fixture as a Streamable HTTP server on 127.0.0.1:0; resolves to its URL. */
async function httpServer(env: Record<string, string>): Promise<string> {
  const { child, port } = startFixtureServer(SERVER, { env: { FIXTURE_HTTP: "1", ...env }, name: "HTTP" });
  children.push(child);
  return `http://127.0.0.1:${await port}/mcp`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe("MCP servers end to end", () => {
  it("uses a Streamable HTTP server with ${VAR} headers", async () => {
    const url = await httpServer({ FIXTURE_TOKEN: "tok-123" });
    writeUserConfig(e, {
      toolSets: [{ name: "web", url, headers: { Authorization: "Bearer ${WEB_TOKEN}" } }],
    });
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "web__echo", args: { text: "over http" } }]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"], "do it", { env: { WEB_TOKEN: "tok-123" } });
    expect(run.code).toBe(0);
    expect(e.provider.requests[0].body.tools.map((t: any) => t.function.name)).toContain("web__echo");
    expect(toolMessages(e.provider.requests[1].body)).toEqual([{ id: "c1", content: "echo: over http" }]);
  });

  it("an HTTP server refusing the headers is a start notice, not a crash", async () => {
    const url = await httpServer({ FIXTURE_TOKEN: "tok-123" });
    writeUserConfig(e, { toolSets: [{ name: "web", url, headers: { Authorization: "Bearer wrong" } }] });
    e.provider.enqueue(openaiText("fine"));
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const notice = run.events.find((ev) => ev.type === "notice" && ev.text.startsWith("tool set 'web'"));
    expect(notice.text).toMatch(/^tool set 'web' failed to start: .*401/);
  });

  it("a huge result is bounded; a server error keeps its words and never carries stderr", async () => {
    writeUserConfig(e, {
      toolSets: [
        { name: "fx", command: process.execPath, args: [SERVER] },
        { name: "raw", command: process.execPath, args: [RAW_SERVER] },
      ],
    });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "fx__big", args: { chars: 3_600_000 } },
        { id: "c2", name: "raw__gateway", args: {} },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"], "do it", { timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.end).toMatchObject({ stop_reason: "completed" });
    const [big, gateway] = toolMessages(e.provider.requests[1].body);
    expect(big.content.length).toBeLessThan(31_000);
    expect(big.content).toMatch(/characters elided/);
    // The output gate saved the whole result (under the MCP bound of 10 million characters).
    const saved = /the full output is in (\S+?);/.exec(big.content)?.[1];
    expect(saved).toBeDefined();
    const full = readFileSync(saved!, "utf8");
    expect(full).toHaveLength(3_600_008);
    expect(full.endsWith("xxxTAIL")).toBe(true);
    expect(gateway.content).toBe("raw__gateway failed: 504 Gateway Timeout from upstream (MCP error -32603)");
    expect(gateway.content).not.toMatch(/timed out after/);
    const record = readFileSync(sessionRecord(), "utf8");
    expect(record).not.toContain("FAKE-SECRET");
    expect(JSON.stringify(e.provider.requests[1].body)).not.toContain("FAKE-SECRET");
  });

  it("progress notifications are tool_progress events", async () => {
    writeUserConfig(e, { toolSets: [{ name: "fx", command: process.execPath, args: [SERVER] }] });
    e.provider.enqueue(openaiToolCalls([{ id: "c1", name: "fx__slow", args: {} }]), openaiText("done"));
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    const progress = run.events.filter((ev) => ev.type === "tool_progress");
    expect(progress).toEqual([
      { type: "tool_progress", id: "c1", name: "fx__slow", progress: 1, total: 3, message: "step 1" },
      { type: "tool_progress", id: "c1", name: "fx__slow", progress: 2, total: 3, message: "step 2" },
      { type: "tool_progress", id: "c1", name: "fx__slow", progress: 3, total: 3, message: "step 3" },
    ]);
  });

  it("a tool a server adds during a call is offered in the very next request, and runs", async () => {
    writeUserConfig(e, { toolSets: [{ name: "fx", command: process.execPath, args: [SERVER] }] });
    e.provider.enqueue(
      openaiToolCalls([{ id: "g1", name: "fx__grow", args: {} }]),
      openaiToolCalls([{ id: "g2", name: "fx__grown", args: {} }]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    const offered = (i: number) => e.provider.requests[i].body.tools.map((t: any) => t.function.name);
    expect(offered(0)).not.toContain("fx__grown");
    expect(offered(1)).toContain("fx__grown");
    expect(toolMessages(e.provider.requests[2].body)).toEqual([
      { id: "g1", content: "grew" },
      { id: "g2", content: "grown here" },
    ]);
  });

  it("the first request waits for a server still starting, and offers its tools", async () => {
    writeUserConfig(e, {
      toolSets: [
        { name: "slow", command: process.execPath, args: [SERVER], env: { FIXTURE_START_DELAY_MS: "1500" } },
      ],
    });
    e.provider.enqueue(openaiText("hi"));
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    expect(
      run.events.some((ev) => ev.type === "notice" && ev.text === "waiting for tool sets to start: slow"),
    ).toBe(true);
    expect(e.provider.requests[0].body.tools.map((t: any) => t.function.name)).toContain("slow__echo");
  });

  it.each(["SIGTERM", "SIGHUP"] as const)(
    "%s ends tern and its servers promptly, even one that ignores its closed input",
    async (sig) => {
      const pidFile = join(e.dirs.root, "server.pid");
      writeUserConfig(e, {
        toolSets: [
          { name: "fx", command: process.execPath, args: [SERVER], env: { FIXTURE_PID_FILE: pidFile } },
        ],
      });
      e.provider.enqueue(openaiToolCalls([{ id: "c1", name: "fx__hang", args: {} }]), openaiText("never"));
      const tern = spawn(
        process.execPath,
        [
          TERN_BIN,
          "run",
          "--json",
          "--yes",
          "--model",
          "openai/mock-1",
          "--base-url",
          e.provider.baseUrl,
          "go",
        ],
        {
          cwd: e.dirs.workspace,
          env: cliEnv(e.dirs.home, { OPENAI_API_KEY: "sk-test" }),
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      children.push(tern);
      let stdout = "";
      tern.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      const exited = new Promise<void>((resolve) => tern.on("exit", () => resolve()));
      // Signal once the hanging call is running.
      expect(await until(() => jsonEvents(stdout).some((ev) => ev.type === "tool_call"), 30_000)).toBe(true);
      const serverPid = Number(readFileSync(pidFile, "utf8"));
      expect(alive(serverPid)).toBe(true);
      tern.kill(sig);
      await exited;
      // The server would live on (its keep-alive timer) if tern did not end it.
      expect(await until(() => !alive(serverPid), 10_000)).toBe(true);
    },
  );
});

function sessionRecord(): string {
  const root = join(e.dirs.home, "sessions");
  const ws = readdirSync(root)[0];
  const id = readdirSync(join(root, ws)).sort().at(-1)!;
  const path = join(root, ws, id, "record.jsonl");
  if (!existsSync(path)) throw new Error("no record");
  return path;
}
