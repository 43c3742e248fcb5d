// MCP through the engine and the line mode (R-EXT): tools join before the first request and
// the record gets a `context` line with them; `/mcp` (the handler both front ends share) lists
// servers, state and tools and reconnects one.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLineCommand } from "../../src/cli/line-commands.js";
import { SideThread } from "../../src/cli/side-thread.js";
import { defaultConfig } from "../../src/config/defaults.js";
import { coreOf } from "../../src/engine/core-of.js";
import { lineHost } from "./line-support.js";
import { useHarness } from "../engine/harness.js";
import { openaiText } from "../support/openai-script.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const h = useHarness();

describe("MCP in the engine and the line mode", () => {
  it("tools join before the first request; /mcp lists and reconnects", async () => {
    const t = await h.start({
      config: (c) => {
        c.toolSets = [
          { name: "fx", command: process.execPath, args: [SERVER], env: {}, timeoutSeconds: 30 },
          {
            name: "gone",
            command: process.execPath,
            args: [join(h.dirs.root, "nope.js")],
            env: {},
            timeoutSeconds: 30,
          },
        ];
      },
    });
    const { ctx, printed } = lineHost(h, t.session);
    h.provider.enqueue(openaiText("hi"));
    await t.prompt("hello");
    const names = h.provider.requests[0].body.tools.map((x: any) => x.function.name);
    expect(names).toEqual(expect.arrayContaining(["bash", "fx__echo", "fx__slow"]));
    // The record says what the model saw: the last context line holds the MCP tools.
    const contexts = coreOf(t.session).fold.context;
    expect(contexts?.tools.map((x) => x.name)).toContain("fx__echo");
    expect(
      t.events.some(
        (e) =>
          e.type === "notice" && /tool set 'gone' failed to start: Error: Cannot find module/.test(e.text),
      ),
    ).toBe(true);

    await runLineCommand("/mcp", ctx);
    expect(printed.at(-1)).toMatch(/^fx \(stdio\) ready · \d+ tools\n {2}echo, /);
    expect(printed.at(-1)).toMatch(/\ngone \(stdio\) failed: Error: Cannot find module/);
    await runLineCommand("/mcp reconnect fx", ctx);
    expect(printed.at(-1)).toMatch(/^fx reconnected · \d+ tools$/);
    await runLineCommand("/mcp reconnect nosuch", ctx);
    expect(printed.at(-1)).toBe("no tool set 'nosuch' (configured: fx, gone)");
    await runLineCommand("/mcp bogus", ctx);
    expect(printed.at(-1)).toMatch(/^usage: \/mcp/);

    // After a reconnect the same names work on the new connection.
    h.provider.enqueue(openaiText("again"));
    await t.prompt("again");
    expect(h.provider.requests[1].body.tools.map((x: any) => x.function.name)).toContain("fx__echo");
  });

  it("/mcp without servers says how to add them", async () => {
    const t = await h.start();
    const printed: string[] = [];
    await runLineCommand("/mcp", {
      session: t.session,
      config: defaultConfig(),
      home: h.dirs.home,
      cost: () => null,
      print: (text: string) => printed.push(text),
      busy: (fn) => fn(),
      side: new SideThread(t.session),
    });
    expect(printed).toEqual(["no MCP servers configured (add toolSets to the config; see the README)"]);
  });
});
