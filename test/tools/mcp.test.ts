// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values name ${VAR} literally
// MCP tool sets against real MCP servers written with the SDK (R-EXT, R-TOOL-6): listing,
// calls, timers, cancellation, start failures with the server's own reason, pagination and
// awkward tool lists, bounded results, progress, errors as the server said them.
import { getEventListeners } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolSetConfig } from "../../src/config/types.js";
import { ToolSets } from "../../src/tools/mcp/mcp.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import type { Tool } from "../../src/tools/types.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

const SERVER = join(import.meta.dirname, "fixtures", "mcp-server.mjs");
const RAW_SERVER = join(import.meta.dirname, "fixtures", "mcp-raw-server.mjs");

let dirs: TempDirs;
let sets: ToolSets | null = null;
let notices: string[] = [];
beforeEach(() => {
  dirs = makeTempDirs();
  notices = [];
});
afterEach(async () => {
  await sets?.close();
  sets = null;
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

async function load(
  configs: ToolSetConfig[],
  env: NodeJS.ProcessEnv = process.env,
  limits?: { textChars: number },
): Promise<Tool[]> {
  sets = new ToolSets(configs, { cwd: dirs.workspace, env, notify: (t) => notices.push(t), limits });
  sets.start();
  await sets.ready();
  return sets.tools();
}

/**
 * One tool set started before a block's cases and closed after them, for cases that leave the
 * server as they found it; `notices` holds what its start reported.
 */
function sharedSet(config: () => ToolSetConfig) {
  const shared = { sets: null as ToolSets | null, tools: [] as Tool[], notices: [] as string[] };
  let home: TempDirs | null = null;
  beforeAll(async () => {
    home = makeTempDirs();
    shared.sets = new ToolSets([config()], {
      cwd: home.workspace,
      env: process.env,
      notify: (t) => shared.notices.push(t),
    });
    shared.sets.start();
    await shared.sets.ready();
    shared.tools = shared.sets.tools();
  });
  afterAll(async () => {
    await shared.sets?.close();
    home?.cleanup();
  });
  return shared;
}

function find(tools: Tool[], name: string): Tool {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name} in ${tools.map((x) => x.name).join(", ")}`);
  return t;
}

describe("MCP tool sets (R-EXT)", () => {
  it("lists tools as <set>__<tool> with the server's own schema, and echoes with ${VAR} env", async () => {
    const tools = await load([set({ env: { FIXTURE_SUFFIX: "${TERN_FX_SUFFIX}" } })], {
      ...process.env,
      TERN_FX_SUFFIX: "!",
    });
    expect(notices).toEqual([]);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["fx__echo", "fx__hang", "fx__peek"]));
    const echo = find(tools, "fx__echo");
    expect(echo.kind).toBe("mcp");
    expect(echo.mcp).toEqual({ set: "fx", tool: "echo", readOnly: false });
    expect(find(tools, "fx__peek").mcp?.readOnly).toBe(true);
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

  it("a stdio server gets no provider key or secret-looking variable of tern's, only what its env names", async () => {
    const secrets = {
      OPENAI_API_KEY: "sk-not-for-servers-1",
      GITHUB_TOKEN: "ghp-not-for-servers",
      MY_SECRET_X: "s",
    };
    const before = Object.fromEntries(Object.keys(secrets).map((k) => [k, process.env[k]]));
    Object.assign(process.env, secrets);
    try {
      const tools = await load([set({ env: { GIVEN_TOKEN: "${GITHUB_TOKEN}" } })]);
      const names = textOf(await find(tools, "fx__env").run({}, makeCtx(dirs.workspace))).split(" ");
      for (const name of Object.keys(secrets)) expect(names).not.toContain(name);
      expect(names).toContain("GIVEN_TOKEN");
      expect(names).toContain("PATH");
    } finally {
      for (const [name, value] of Object.entries(before))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });

  it("a ${VAR} that is not set fails the start with a message naming it", async () => {
    await load([set({ env: { TOKEN: "${TERN_SURELY_UNSET_VAR}" } })], {});
    expect(notices).toEqual([
      "tool set 'fx' failed to start: env.TOKEN names ${TERN_SURELY_UNSET_VAR}, which is not set in tern's environment",
    ]);
  });

  it("bounds a huge result: head and tail kept, the middle elided with a count", async () => {
    const tools = await load([set()], process.env, { textChars: 30_000 });
    const r = await find(tools, "fx__big").run({ chars: 3_600_000 }, makeCtx(dirs.workspace));
    const text = textOf(r);
    expect(text.length).toBeLessThan(31_000);
    expect(text.startsWith("HEADxxx")).toBe(true);
    expect(text.endsWith("xxxTAIL")).toBe(true);
    expect(text).toMatch(/\[… 3570008 characters elided: the result had 3600008 characters/);
  });

  it("times out a call that never answers with its own timer; a server's 'timeout' error stays its own", async () => {
    const tools = await load([set({ timeoutSeconds: 0.5 })]);
    const r = await find(tools, "fx__hang").run({}, makeCtx(dirs.workspace, { bashTimeoutSeconds: 0.01 }));
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toBe("fx__hang timed out after 0.5s.");
    expect((await find(tools, "fx__echo").run({ text: "x" }, makeCtx(dirs.workspace))).outcome).toBe("ok");
  });

  it("turns a crashed server into a tool error, then fails fast; /mcp state says closed", async () => {
    const tools = await load([set()]);
    const r = await find(tools, "fx__crash").run({}, makeCtx(dirs.workspace));
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toMatch(/^fx__crash failed: the fx server exited/);
    const again = await find(tools, "fx__echo").run({ text: "x" }, makeCtx(dirs.workspace));
    expect(textOf(again)).toMatch(/fx server is not running/);
    expect(sets!.status()[0]).toMatchObject({ name: "fx", state: "closed" });
    // Reconnect brings it back under the same names.
    const status = await sets!.reconnect("fx");
    expect(status.state).toBe("ready");
    const back = await find(sets!.tools(), "fx__echo").run({ text: "y" }, makeCtx(dirs.workspace));
    expect(textOf(back)).toBe("echo: y");
  });

  it("a server that dies mid-call is named by its own error line, never by its other stderr", async () => {
    const tools = await load([set()]);
    const r = await find(tools, "fx__die").run({}, makeCtx(dirs.workspace));
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toBe("fx__die failed: the fx server exited (Error: lost the database connection)");
    const again = await find(tools, "fx__echo").run({ text: "x" }, makeCtx(dirs.workspace));
    expect(textOf(again)).toBe(
      "fx__echo failed: the fx server is not running (the server exited: Error: lost the database connection).",
    );
    expect(sets!.status()[0]).toMatchObject({
      state: "closed",
      reason: "the server exited: Error: lost the database connection",
    });
    // The fixture's start-up line carries a fake token: the crash above says nothing of it.
    for (const text of [textOf(r), textOf(again), JSON.stringify(sets!.status())])
      expect(text).not.toContain("FAKE-SECRET");
  });

  it("a server that fails to start is a notice naming its own reason; the others still load", async () => {
    const tools = await load([
      set({ name: "broken", command: join(dirs.root, "no-such-binary") }),
      set({ name: "nomod", args: [join(dirs.root, "missing-server.js")] }),
      set({ name: "mute", args: ["-e", "setInterval(() => {}, 1000)"], startTimeoutSeconds: 0.5 }),
      set(),
    ]);
    expect(notices).toHaveLength(3);
    const byName = (n: string) => notices.find((x) => x.startsWith(`tool set '${n}'`)) ?? "";
    expect(byName("broken")).toMatch(/^tool set 'broken' failed to start: .*ENOENT/);
    expect(byName("nomod")).toMatch(
      /^tool set 'nomod' failed to start: Error: Cannot find module '.*missing-server\.js'/,
    );
    expect(byName("nomod")).not.toMatch(/Connection closed/i);
    expect(byName("mute")).toBe(
      "tool set 'mute' failed to start: it did not start within 0.5s (startTimeoutSeconds)",
    );
    expect(tools.map((t) => t.name)).toContain("fx__echo");
    expect(sets!.status().map((s) => [s.name, s.state])).toEqual([
      ["broken", "failed"],
      ["nomod", "failed"],
      ["mute", "failed"],
      ["fx", "ready"],
    ]);
  });

  it("a server whose tool list changes is read again", async () => {
    const tools = await load([set()]);
    expect(tools.map((t) => t.name)).not.toContain("fx__grown");
    expect(textOf(await find(tools, "fx__grow").run({}, makeCtx(dirs.workspace)))).toBe("grew");
    const deadline = Date.now() + 10_000;
    while (!sets!.tools().some((t) => t.name === "fx__grown") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    const grown = find(sets!.tools(), "fx__grown");
    expect(textOf(await grown.run({}, makeCtx(dirs.workspace)))).toBe("grown here");
  });

  it("closing while a server is still starting ends that server too", async () => {
    const pidFile = join(dirs.root, "slow.pid");
    sets = new ToolSets([set({ env: { FIXTURE_START_DELAY_MS: "60000", FIXTURE_PID_FILE: pidFile } })], {
      cwd: dirs.workspace,
      notify: (t) => notices.push(t),
    });
    sets.start();
    // Wait for the pid itself, not just the file: a loaded machine can show the file created and
    // still empty, and isAlive(0) would ask about our own process group.
    const readPid = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : 0);
    const deadline = Date.now() + 20_000;
    while (readPid() <= 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const pid = readPid();
    expect(pid).toBeGreaterThan(0);
    await sets.close();
    sets = null;
    expect(isAlive(pid)).toBe(false);
    expect(notices).toEqual([]);
  });

  it("closing ends a server that ignores its closed input", async () => {
    // How fast (0.3 s to SIGTERM instead of the SDK's 2 s) is for the bench; here: it is gone.
    const pidFile = join(dirs.root, "ignoring.pid");
    await load([set({ env: { FIXTURE_PID_FILE: pidFile } })]);
    const pid = Number(readFileSync(pidFile, "utf8"));
    await sets!.close();
    sets = null;
    expect(isAlive(pid)).toBe(false);
  });

  // The cases below leave their server as they found it (no crash, no changed tool list, the
  // default limits), so each block starts one server for all its cases instead of one a case.
  describe("against one fx server", () => {
    const fx = sharedSet(set);

    it("maps isError to outcome error and a real PNG to an image part", async () => {
      const tools = fx.tools;
      const r = await find(tools, "fx__bad").run({}, makeCtx(dirs.workspace));
      expect(r.outcome).toBe("error");
      expect(r.content[0]).toEqual({ type: "text", text: "it went wrong" });
      expect(r.content[1]).toMatchObject({ type: "image", mediaType: "image/png" });
    });

    it("describes resource links, binary resources and audio; SVG is text; a fake image is not sent", async () => {
      const tools = fx.tools;
      const r = await find(tools, "fx__media").run({}, makeCtx(dirs.workspace));
      expect(r.content.every((p) => p.type === "text")).toBe(true);
      const text = textOf(r);
      expect(text).toContain(
        "[resource link — uri: file:///data/report.pdf, name: report.pdf, mimeType: application/pdf, size: 2.0 kB]",
      );
      expect(text).toContain(
        "[binary resource not shown — uri: file:///data/blob.bin, mimeType: application/octet-stream, size: 4 bytes]",
      );
      expect(text).toContain("[resource — uri: file:///data/note.txt, mimeType: text/plain]\nnote body");
      expect(text).toContain("[audio not shown — mimeType: audio/wav, size: 8 bytes]");
      expect(text).toContain('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>');
      expect(text).toContain(
        "[image not shown — mimeType: image/png, size: 12 bytes, reason: not a PNG, JPEG, GIF or WebP image]",
      );
    });

    it("a result over 10 MB on the wire keeps the server: it is bounded, and the next call works", async () => {
      const tools = fx.tools;
      const r = await find(tools, "fx__big").run({ chars: 12_000_000 }, makeCtx(dirs.workspace));
      expect(r.outcome).toBe("ok");
      const text = textOf(r);
      expect(text.startsWith("HEADxxx")).toBe(true);
      expect(text.endsWith("xxxTAIL")).toBe(true);
      expect(text).toMatch(/characters elided/);
      expect(textOf(await find(tools, "fx__echo").run({ text: "still" }, makeCtx(dirs.workspace)))).toBe(
        "echo: still",
      );
      expect(fx.sets!.status()[0].state).toBe("ready");
    });

    it("keeps an ordinary large result whole for the output gate (default bound 10,000,000 characters)", async () => {
      const tools = fx.tools;
      const r = await find(tools, "fx__big").run({ chars: 200_000 }, makeCtx(dirs.workspace));
      expect(textOf(r)).toHaveLength(200_008);
    });

    it("cancels a hanging call on abort", async () => {
      const tools = fx.tools;
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      const r = await find(tools, "fx__hang").run({}, makeCtx(dirs.workspace, { signal: ac.signal }));
      expect(r.outcome).toBe("error");
      expect(textOf(r)).toMatch(/cancelled/);
    });

    it("leaves no listener on the turn's signal after many calls, and no MaxListeners warning", async () => {
      const tools = fx.tools;
      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on("warning", onWarning);
      try {
        const ac = new AbortController();
        const ctx = makeCtx(dirs.workspace, { signal: ac.signal });
        for (let i = 0; i < 25; i++) {
          const r = await find(tools, "fx__echo").run({ text: String(i) }, ctx);
          expect(r.outcome).toBe("ok");
        }
        await new Promise((r) => setImmediate(r));
        expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
        // Node's own count of abort listeners on the turn's signal: none left behind.
        expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
      } finally {
        process.off("warning", onWarning);
      }
    });

    it("passes progress notifications on with the call id", async () => {
      const tools = fx.tools;
      const seen: unknown[] = [];
      const r = await find(tools, "fx__slow").run(
        {},
        makeCtx(dirs.workspace, { callId: "c9", progress: (id, p) => seen.push({ id, ...p }) }),
      );
      expect(textOf(r)).toBe("slow done");
      expect(seen).toEqual([
        { id: "c9", progress: 1, total: 3, message: "step 1" },
        { id: "c9", progress: 2, total: 3, message: "step 2" },
        { id: "c9", progress: 3, total: 3, message: "step 3" },
      ]);
    });
  });

  describe("against one raw server", () => {
    const raw = sharedSet(() => set({ name: "raw", args: [RAW_SERVER] }));

    it("a JSON-RPC error keeps the server's words: not called a timeout, no stderr appended", async () => {
      const tools = raw.tools;
      const g = await find(tools, "raw__gateway").run({}, makeCtx(dirs.workspace));
      expect(g.outcome).toBe("error");
      expect(textOf(g)).toBe("raw__gateway failed: 504 Gateway Timeout from upstream (MCP error -32603)");
    });

    it("reads every page; long names stay distinct; a malformed tool or a task-only tool is skipped alone", async () => {
      const tools = raw.tools;
      const names = tools.map((t) => t.name);
      expect(names).toContain("raw__first");
      expect(names).toContain("raw__last");
      const long = names.filter((n) => n.startsWith("raw__a_very_long"));
      expect(long).toHaveLength(2);
      expect(new Set(long).size).toBe(2);
      for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(names.some((n) => n.includes("broken") || n.includes("tasky"))).toBe(false);
      expect(names).toContain("raw__gateway");
      expect(raw.notices).toEqual([
        expect.stringMatching(/^tool set 'raw': skipped tool "broken": malformed definition/),
        expect.stringMatching(/^tool set 'raw': skipped tool "tasky": it runs only as a task/),
      ]);
      const [one, two] = long.map((n) => find(tools, n));
      expect(textOf(await two.run({}, makeCtx(dirs.workspace)))).toMatch(/_two$/);
      expect(textOf(await one.run({}, makeCtx(dirs.workspace)))).toMatch(/_one$/);
    });

    it("folds a schema of top-level alternatives into one object every provider takes, naming the forms", async () => {
      const tools = raw.tools;
      const either = find(tools, "raw__either");
      expect(either.jsonSchema).toEqual({
        type: "object",
        properties: { id: { type: "string" }, path: { type: "string" }, verbose: { type: "boolean" } },
      });
      expect(either.description).toBe(
        "by id or by path\nGive exactly one of these argument sets: {id} or {path}.",
      );
      const union = find(tools, "raw__union");
      expect(union.jsonSchema).toEqual({
        type: "object",
        properties: { a: { type: "number" }, mode: { type: "string" }, b: { type: "string" } },
        required: ["mode"],
      });
      expect(union.description).toMatch(
        /Give at least one of these argument sets: \{a, mode\} or \{b, mode\}\.$/,
      );
      for (const t of tools)
        for (const k of ["anyOf", "oneOf", "allOf"]) expect(t.jsonSchema).not.toHaveProperty(k);
      expect(textOf(await union.run({ b: "x", mode: "m" }, makeCtx(dirs.workspace)))).toBe("called union");
    });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
