// Servers that misbehave (R-LSP-1/-4), played by a stand-in speaking LSP badly
// (fixtures/stand-in-server.mjs): one that crashes restarts at most 3 times and is then reported
// once; one that never answers `initialize` is given up after 10 s and the edit goes on; one that
// chatters has its logs kept from the model; a workspace that is not trusted never runs a server
// of its own. No process is left behind.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/types.js";
import { DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS } from "../../src/config/defaults.js";
import { SessionLanguageServers } from "../../src/lsp/session-servers.js";
import { config, processesIn, removeProject, serverEnv, tempProject } from "./lsp-support.js";

const STAND_IN = resolve(import.meta.dirname, "fixtures/stand-in-server.mjs");
let dir: string;
let servers: SessionLanguageServers | undefined;

afterEach(async () => {
  await servers?.close();
  expect(processesIn(dir)).toEqual([]);
  removeProject(dir);
});

function standIn(mode: string, extra: Partial<Config> = {}) {
  dir = tempProject({ "a.fake": "let x = 1\nlet y = 2\n" });
  const starts = join(dir, "starts.log");
  const notices: string[] = [];
  servers = new SessionLanguageServers({
    defaultTimeoutMs: DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS,
    cwd: dir,
    config: config({
      lsp: {
        diagnosticsTimeoutMs: 20_000,
        fake: { command: [process.execPath, STAND_IN, mode, starts], extensions: [".fake"] },
      },
      ...extra,
    }),
    env: serverEnv(),
    notify: (text) => notices.push(text),
  });
  const countStarts = () => (existsSync(starts) ? readFileSync(starts, "utf8").trim().split("\n").length : 0);
  return { file: join(dir, "a.fake"), countStarts, notices };
}

describe("language servers that misbehave", () => {
  it("a configured server's error is listed, its warning counted, and its logs never reach the result", async () => {
    const { file } = standIn("noisy");
    const { text, files } = await servers!.edited([file]);
    expect(text).toBe("Diagnostics:\na.fake:1:5: error[E1]: bad thing\n(1 warning in a.fake not listed)");
    expect(files).toEqual([{ path: "a.fake", errors: 1, warnings: 1 }]);
    const asked = await servers!.query(
      { operation: "diagnostics", path: file },
      new AbortController().signal,
    );
    expect(asked.text).toBe("a.fake:1:5: error[E1]: bad thing\na.fake:2:1: warning[W9]: meh");
    expect(JSON.stringify(asked) + text).not.toContain("SECRET-LOG-LINE");
  });

  it("a crashing server restarts at most 3 times, then is reported unavailable once", async () => {
    const { file, countStarts, notices } = standIn("crash");
    const texts: string[] = [];
    for (let i = 0; i < 6; i++) texts.push((await servers!.edited([file])).text);
    expect(countStarts()).toBe(4);
    const reported = texts.filter((t) => t.includes("not restarted"));
    expect(reported).toEqual([
      "Diagnostics:\nfake language server: fake crashed 4 times (last: exited with code 3); not restarted",
    ]);
    expect(texts.at(-1)).toBe("");
    expect(servers!.status()).toMatchObject([{ name: "fake", state: "unavailable" }]);
    expect(notices.filter((n) => n.includes("not restarted"))).toHaveLength(1);
  });

  it("a server that never answers initialize is given up after 10 s and the edit goes on", async () => {
    const { file, countStarts } = standIn("hang");
    const { text } = await servers!.edited([file]);
    expect(text).toBe(
      "Diagnostics:\nfake language server: fake did not start: no answer to initialize in 10 s",
    );
    expect(countStarts()).toBe(1);
    expect(processesIn(dir)).toEqual([]);
    expect((await servers!.edited([file])).text).toBe("");
    expect(countStarts()).toBe(1);
  }, 30_000);

  it("a session that ends while its server is still silent on initialize leaves no process", async () => {
    const { file, countStarts } = standIn("hang");
    servers!.touched(file);
    for (let waited = 0; countStarts() === 0; waited += 50) {
      if (waited > 20_000) throw new Error("the stand-in never started");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(servers!.status()).toMatchObject([{ name: "fake", state: "starting" }]);
    await servers!.close();
    expect(processesIn(dir)).toEqual([]);
  });

  it("an untrusted workspace's own server is not run, and the result says why; a trusted one's is", async () => {
    const project = { "tsconfig.json": "{}", "a.ts": "export const a = 1;\n" };
    dir = tempProject(project);
    const own = join(dir, "node_modules/.bin/typescript-language-server");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
    writeFileSync(own, `#!/bin/sh\necho ran > "${join(dir, "ran")}"\n`);
    chmodSync(own, 0o755);
    // Only the workspace's own program is there to be found.
    const env = { ...serverEnv(), PATH: "/usr/bin:/bin" };
    servers = new SessionLanguageServers({
      defaultTimeoutMs: DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS,
      cwd: dir,
      config: config(),
      env,
    });
    expect((await servers.edited([join(dir, "a.ts")])).text).toBe(
      "Diagnostics:\ntypescript language server: not run: node_modules/.bin/typescript-language-server " +
        "is inside this workspace, which is not in trustedWorkspaces",
    );
    expect(existsSync(join(dir, "ran"))).toBe(false);
    await servers.close();
    servers = new SessionLanguageServers({
      defaultTimeoutMs: DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS,
      cwd: dir,
      config: config({ trustedWorkspaces: [dir] }),
      env,
    });
    await servers.edited([join(dir, "a.ts")]);
    expect(existsSync(join(dir, "ran"))).toBe(true);
  });
});
