import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolSetConfig } from "../../src/config/types.js";
import { type LoadedToolSets, loadToolSets } from "../../src/tools/mcp.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

const SERVER = join(import.meta.dirname, "fixtures", "mcp-server.mjs");

let dirs: TempDirs;
let loaded: LoadedToolSets | null = null;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(async () => {
  await loaded?.close();
  loaded = null;
  dirs.cleanup();
});

const set = (over: Partial<ToolSetConfig> = {}): ToolSetConfig => ({
  name: "fx",
  command: process.execPath,
  args: [SERVER],
  env: {},
  timeoutSeconds: 120,
  ...over,
});

function tool(name: string) {
  const t = loaded!.tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

describe("MCP tool sets (R-EXT)", () => {
  it("lists tools as <set>__<tool> with the server's own schema, and echoes", async () => {
    loaded = await loadToolSets([set({ env: { FIXTURE_SUFFIX: "!" } })], dirs.workspace);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.tools.map((t) => t.name).sort()).toEqual(["fx__bad", "fx__crash", "fx__echo", "fx__hang"]);
    const echo = tool("fx__echo");
    expect(echo.kind).toBe("mcp");
    const reg = new ToolRegistry();
    reg.register(echo);
    const [def] = reg.definitions();
    expect(def.description).toBe("Echo the text back");
    expect(def.parameters).toMatchObject({
      type: "object",
      properties: { text: { type: "string", description: "what to echo" } },
      required: ["text"],
    });
    const r = await echo.run({ text: "hi" }, makeCtx(dirs.workspace));
    expect(r).toEqual({ outcome: "ok", content: [{ type: "text", text: "echo: hi!" }] });
  });

  it("maps isError to outcome error and images to image parts", async () => {
    loaded = await loadToolSets([set()], dirs.workspace);
    const r = await tool("fx__bad").run({}, makeCtx(dirs.workspace));
    expect(r).toEqual({
      outcome: "error",
      content: [
        { type: "text", text: "it went wrong" },
        { type: "image", mediaType: "image/png", data: "aGVsbG8=" },
      ],
    });
  });

  it("times out a call that never answers with its own timer, not bashTimeoutSeconds", async () => {
    loaded = await loadToolSets([set({ timeoutSeconds: 0.5 })], dirs.workspace);
    const started = Date.now();
    const r = await tool("fx__hang").run({}, makeCtx(dirs.workspace, { bashTimeoutSeconds: 0.01 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toBe("fx__hang timed out after 0.5s.");
    // The server still works after a timed-out call.
    expect((await tool("fx__echo").run({ text: "x" }, makeCtx(dirs.workspace))).outcome).toBe("ok");
  });

  it("cancels a hanging call on abort", async () => {
    loaded = await loadToolSets([set()], dirs.workspace);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await tool("fx__hang").run({}, makeCtx(dirs.workspace, { signal: ac.signal }));
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toMatch(/cancelled/);
  });

  it("turns a crashed server into a tool error, then fails fast", async () => {
    loaded = await loadToolSets([set()], dirs.workspace);
    const started = Date.now();
    const r = await tool("fx__crash").run({}, makeCtx(dirs.workspace));
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toMatch(/^fx__crash failed: the fx server exited/);
    const again = await tool("fx__echo").run({ text: "x" }, makeCtx(dirs.workspace));
    expect(again.outcome).toBe("error");
    expect(textOf(again)).toMatch(/fx server is not running/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("makes a server that fails to start a warning, and keeps the others", async () => {
    loaded = await loadToolSets(
      [
        set({ name: "broken", command: join(dirs.root, "no-such-binary") }),
        set({ name: "dies", args: ["-e", "process.exit(1)"] }),
        set({ name: "mute", args: ["-e", "setInterval(() => {}, 1000)"], timeoutSeconds: 0.5 }),
        set(),
      ],
      dirs.workspace,
    );
    expect(loaded.warnings).toHaveLength(3);
    expect(loaded.warnings[2]).toMatch(/^tool set 'mute' failed to start: .*timed out/i);
    expect(loaded.warnings[0]).toMatch(/^tool set 'broken' failed to start: /);
    expect(loaded.warnings[1]).toMatch(/^tool set 'dies' failed to start: /);
    expect(loaded.tools.map((t) => t.name)).toContain("fx__echo");
  });
});
