// web_fetch through the built CLI: asks in ask mode (denied by `tern run` without --yes), a domain
// rule allows it, and the page reaches the model as markdown.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E } from "./tools-support.js";

const e = useE2E();
let site: Server;
let url: string;

beforeAll(async () => {
  site = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end("<html><body><h2>Docs</h2><p>Use <code>tern run</code>.</p></body></html>");
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/docs`;
});
afterAll(() => site.close());

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

  it("a domain rule allows it and the page arrives as markdown", async () => {
    enqueueFetch();
    const run = await ternRun(e, ["--allow", "web_fetch(127.0.0.1)"]);
    expect(run.code).toBe(0);
    const content = toolMessages(e.provider.requests[1].body)[0].content;
    expect(content).toContain("## Docs");
    expect(content).toContain("Use `tern run`.");
  });

  it("a rule for another domain does not", async () => {
    enqueueFetch();
    await ternRun(e, ["--allow", "web_fetch(docs.python.org)"]);
    expect(toolMessages(e.provider.requests[1].body)[0].content).toMatch(/denied/);
  });
});
