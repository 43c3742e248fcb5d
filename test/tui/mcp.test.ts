// MCP in the interactive UI (R-EXT, R-UI-7): the UI is ready to type while a server is still
// starting (servers start in the background), `/mcp` lists servers with their state and tools
// and reconnects one, and a prompt typed early waits for the server and gets its tools.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { useTui } from "./support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const t = useTui();

describe("MCP in the interactive UI", () => {
  it("is ready to type before a slow server has started; /mcp shows states, tools and reconnects", async () => {
    const ready = join(t.dirs.root, "slow.ready");
    const gate = join(t.dirs.root, "slow.gate");
    const pidFile = join(t.dirs.root, "fx.pid");
    t.provider.enqueue(openaiText("hello"));
    const vt = await t.start([], {
      toolSets: [
        {
          name: "slow",
          command: process.execPath,
          args: [SERVER],
          // It starts only once the test opens the gate: the order, not the time, is what is checked.
          env: { FIXTURE_START_GATE: gate, FIXTURE_READY_FILE: ready },
          startTimeoutSeconds: 120,
        },
        { name: "fx", command: process.execPath, args: [SERVER], env: { FIXTURE_PID_FILE: pidFile } },
        { name: "gone", command: process.execPath, args: [join(t.dirs.root, "missing.js")] },
      ],
    });
    expect(existsSync(ready)).toBe(false);
    await vt.waitFor(/tool set 'gone' failed to start: Error: Cannot find module/);
    await vt.type("/mcp");
    await vt.press("enter");
    await vt.waitFor("slow (stdio) starting");
    // The servers' picker opens under the report (R-UI-28); Ctrl+C leaves it.
    await vt.waitForScreen(/MCP servers · type to filter/);
    await vt.write("\x03");
    await vt.waitForGone(/MCP servers · type to filter/);
    expect(existsSync(ready)).toBe(false);
    // A prompt sent now waits for the slow server and is offered its tools.
    await vt.type("hi");
    await vt.press("enter");
    // The turn says it waits for the server, and has sent nothing yet: now let the server start.
    await vt.waitFor("waiting for tool sets to start: slow");
    expect(t.provider.requests).toHaveLength(0);
    writeFileSync(gate, "");
    await vt.waitFor("— turn 1 · completed", 60_000);
    expect(existsSync(ready)).toBe(true);
    expect(t.provider.requests[0].body.tools.map((x: any) => x.function.name)).toContain("slow__echo");
    await vt.type("/mcp");
    await vt.press("enter");
    await vt.waitFor(/slow \(stdio\) ready · \d+ tools/);
    await vt.waitFor(/gone \(stdio\) failed: Error: Cannot find module/);
    // Picked from the servers' picker: Enter on `fx` reconnects it, as `/mcp reconnect fx`.
    await vt.waitForScreen(/MCP servers · type to filter/);
    await vt.type("fx");
    await vt.waitForScreen(/▸ fx +stdio /);
    await vt.press("enter");
    await vt.waitFor(/fx reconnected · \d+ tools/, 30_000);
    await vt.type("/mcp reconnect fx");
    await vt.press("enter");
    await vt.waitFor(/fx reconnected · \d+ tools[\s\S]*fx reconnected · \d+ tools/, 30_000);
    // SIGTERM ends the UI and its servers (the reconnected one included).
    const serverPid = Number(readFileSync(pidFile, "utf8"));
    expect(alive(serverPid)).toBe(true);
    vt.pty.kill("SIGTERM");
    await vt.exited;
    const deadline = Date.now() + 10_000;
    while (alive(serverPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive(serverPid)).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
