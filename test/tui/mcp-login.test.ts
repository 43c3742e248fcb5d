// `/mcp login <name>` in the Ink UI (R-MCP-1), in a real pty: the authorization URL is printed
// (TERN_NO_BROWSER=1: only printed), the test plays the browser by following it to the real
// SDK-built authorization server (test/tools/fixtures/mcp-oauth-server.mjs), and the server then
// connects with its tools in the same session.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeProvider } from "../support/fake-provider.js";
import { startFixtureServer } from "../support/fixture-server.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { VTerm } from "../support/vterm.js";

const FIXTURE = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-oauth-server.mjs");
let dirs: TempDirs;
let provider: FakeProvider;
const owned: { kill(): void }[] = [];
beforeEach(async () => {
  dirs = makeTempDirs("tern-tui-");
  provider = await FakeProvider.start();
});
afterEach(async () => {
  for (const o of owned.splice(0)) o.kill();
  await provider.close();
  dirs.cleanup();
});

async function oauthServer(): Promise<string> {
  const { child, port } = startFixtureServer(FIXTURE, { stderr: "inherit", name: "OAuth" });
  owned.push({ kill: () => child.kill("SIGKILL") });
  return `http://127.0.0.1:${await port}/mcp`;
}

describe("/mcp login in the UI", () => {
  it("prints the URL; following it logs in and the server connects", async () => {
    const url = await oauthServer();
    writeFileSync(join(dirs.home, "config.json"), JSON.stringify({ toolSets: [{ name: "docs", url }] }));
    // Wide, so the long authorization URL sits on one row.
    const vt = new VTerm({
      home: dirs.home,
      cwd: dirs.workspace,
      args: ["--model", "local/mock-1", "--base-url", provider.baseUrl],
      env: { TERN_NO_BROWSER: "1" },
      cols: 600,
    });
    owned.push({ kill: () => void vt.close() });
    await vt.waitFor(/context \d+% · \d+ tokens/, 15_000);
    await vt.type("/mcp login docs");
    await vt.press("enter");
    await vt.waitFor("Open this URL to log in to 'docs':");
    const screen = await vt.waitFor(/Waiting for the redirect to http:\/\/127\.0\.0\.1:\d+\/callback/);
    expect(screen).not.toContain("opened in your browser");
    const authorize = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(screen)![1];
    const approved = await fetch(authorize, { redirect: "manual" });
    const back = approved.headers.get("location")!;
    expect(await (await fetch(back)).text()).toContain("logged in");
    await vt.waitFor("logged in to docs · 1 tools");
  });
});
