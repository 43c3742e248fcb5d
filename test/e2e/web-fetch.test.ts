// web_fetch through the built CLI: asks in ask mode (denied by `tern run` without --yes), a domain
// rule allows it, a loopback or private address asks whatever the rules say (§10), and the page
// reaches the model as markdown.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E } from "./tools-support.js";

const e = useE2E();
let site: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  site = createServer((_req, res) => {
    requests++;
    res.setHeader("content-type", "text/html");
    res.end("<html><body><h2>Docs</h2><p>Use <code>tern run</code>.</p></body></html>");
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/docs`;
});
afterAll(() => site.close());
beforeEach(() => {
  requests = 0;
});

function enqueueFetch(): void {
  e.provider.enqueue(
    openaiToolCalls([{ id: "f1", name: "web_fetch", args: { url } }]),
    openaiText("read it"),
  );
}

describe("web_fetch end to end", () => {
  it("is denied without approval in ask mode, and offered to the model as a tool", async () => {
    enqueueFetch();
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const tools = e.provider.requests[0].body.tools.map((t: any) => t.function.name);
    expect(tools).toContain("web_fetch");
    expect(toolMessages(e.provider.requests[1].body)[0].content).toMatch(/denied/);
  });

  it("a domain rule does not cover a loopback address (§10): it asks; approved, the page arrives as markdown", async () => {
    enqueueFetch();
    const denied = await ternRun(e, ["--allow", "web_fetch(127.0.0.1)"]);
    expect(denied.code).toBe(0);
    expect(toolMessages(e.provider.requests[1].body)[0].content).toMatch(/without --yes/);
    enqueueFetch();
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    const content = toolMessages(e.provider.requests[3].body)[0].content;
    expect(content).toContain("## Docs");
    expect(content).toContain("Use `tern run`.");
  });

  it("auto-edit asks for loopback, link-local and private addresses and names resolving to them", async () => {
    writeFileSync(join(e.dirs.home, "config.json"), JSON.stringify({ permissions: { mode: "auto-edit" } }));
    const port = new URL(url).port;
    const targets = [
      url,
      `http://localhost:${port}/docs`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/",
      "http://[::1]:9/",
      // The URL parser writes it [::ffff:7f00:1]: still 127.0.0.1.
      `http://[::ffff:127.0.0.1]:${port}/docs`,
    ];
    e.provider.enqueue(
      openaiToolCalls(targets.map((u, i) => ({ id: `f${i}`, name: "web_fetch", args: { url: u } }))),
      openaiText("read it"),
    );
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const asked = run.events.filter((ev) => ev.type === "approval");
    expect(asked.map((ev) => [ev.id, ev.decision])).toEqual(targets.map((_, i) => [`f${i}`, "denied"]));
    expect(requests).toBe(0);
  });

  it("a rule for another domain does not", async () => {
    enqueueFetch();
    await ternRun(e, ["--allow", "web_fetch(docs.python.org)"]);
    expect(toolMessages(e.provider.requests[1].body)[0].content).toMatch(/denied/);
  });
});
