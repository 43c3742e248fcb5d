// Streamable HTTP tool sets against a stateful server (R-EXT): a server that restarts forgets its
// sessions and answers 404; tern starts a new session and sends the call again, instead of
// failing every later call until someone reconnects by hand.
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ToolSets } from "../../src/tools/mcp/mcp.js";
import { startFixtureServer } from "../support/fixture-server.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

const SERVER = join(import.meta.dirname, "fixtures", "mcp-stateful-http.mjs");
const children: ChildProcess[] = [];
let sets: ToolSets | null = null;
let dirs: TempDirs | null = null;
afterEach(async () => {
  await sets?.close();
  sets = null;
  for (const c of children.splice(0)) c.kill("SIGKILL");
  dirs?.cleanup();
});

/** Starts the server (on `port` when given); resolves to its port once it listens. */
async function startServer(env: Record<string, string>): Promise<{ port: string; child: ChildProcess }> {
  const { child, port } = startFixtureServer(SERVER, { env, name: "HTTP" });
  children.push(child);
  return { port: await port, child };
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once("exit", resolve));
}

describe("Streamable HTTP tool sets with sessions", () => {
  for (const jsonResponse of ["0", "1"]) {
    it(`a restarted server's 404 starts a new session and the call goes through (${jsonResponse === "1" ? "JSON" : "SSE"} answers)`, async () => {
      const first = await startServer({ JSON_RESPONSE: jsonResponse });
      dirs = makeTempDirs();
      const notices: string[] = [];
      sets = new ToolSets(
        [{ name: "st", url: `http://127.0.0.1:${first.port}/mcp`, env: {}, args: [], timeoutSeconds: 60 }],
        { cwd: dirs.workspace, notify: (t) => notices.push(t) },
      );
      sets.start();
      await sets.ready();
      const [echo] = sets.tools();
      expect(echo.name).toBe("st__echo");
      const before = await echo.run({ text: "a" }, makeCtx(dirs.workspace));
      expect(textOf(before)).toBe(`echo a from ${first.child.pid}`);

      first.child.kill("SIGKILL");
      await exited(first.child);
      const down = await echo.run({ text: "b" }, makeCtx(dirs.workspace));
      expect(down.outcome).toBe("error");
      // fetch says only "fetch failed"; its cause tells the user the server is not there.
      expect(textOf(down)).toMatch(/^st__echo failed: fetch failed \(.*ECONNREFUSED/);

      const second = await startServer({ JSON_RESPONSE: jsonResponse, PORT: first.port });
      // Two calls at once after the restart: both go through on one new session.
      const [c, d] = await Promise.all([
        echo.run({ text: "c" }, makeCtx(dirs.workspace)),
        echo.run({ text: "d" }, makeCtx(dirs.workspace)),
      ]);
      expect([c.outcome, textOf(c)]).toEqual(["ok", `echo c from ${second.child.pid}`]);
      expect([d.outcome, textOf(d)]).toEqual(["ok", `echo d from ${second.child.pid}`]);
      expect(sets.status()).toEqual([{ name: "st", transport: "http", state: "ready", tools: ["echo"] }]);
      expect(notices).toEqual([]);
    });
  }

  it("ends its session on the server when it closes (DELETE), as a stateful server expects", async () => {
    dirs = makeTempDirs();
    const closedFile = join(dirs.root, "closed.txt");
    const server = await startServer({ CLOSED_FILE: closedFile });
    sets = new ToolSets(
      [{ name: "st", url: `http://127.0.0.1:${server.port}/mcp`, env: {}, args: [], timeoutSeconds: 60 }],
      { cwd: dirs.workspace, notify: () => {} },
    );
    sets.start();
    await sets.ready();
    expect(textOf(await sets.tools()[0].run({ text: "a" }, makeCtx(dirs.workspace)))).toMatch(/^echo a/);
    expect(existsSync(closedFile)).toBe(false);
    await sets.close();
    sets = null;
    expect(readFileSync(closedFile, "utf8").trim().split("\n")).toHaveLength(1);
  });
});
