// The `lsp` key (R-LSP-1/-4): its errors name the file and key; an untrusted workspace may turn
// servers off but never name a program; `tern config check` lists servers found and missing.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { loadConfig } from "../../src/config/load.js";
import { languageServerLines } from "../../src/lsp/check.js";
import { configuredServers } from "../../src/lsp/servers.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { REPO_BIN } from "./lsp-support.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const writeUser = (c: unknown) => writeFileSync(join(dirs.home, "config.json"), JSON.stringify(c));
const writeWs = (c: unknown) => {
  mkdirSync(join(dirs.workspace, ".tern"), { recursive: true });
  writeFileSync(join(dirs.workspace, ".tern", "config.json"), JSON.stringify(c));
};
const load = () => loadConfig({ home: dirs.home, cwd: dirs.workspace, flags: {}, env: {} });

describe("the lsp configuration", () => {
  it("names the file and key of a bad value", () => {
    writeUser({ lsp: { typescript: { command: "typescript-language-server" } } });
    expect(() => load()).toThrow(ConfigError);
    expect(() => load()).toThrow(/config\.json: lsp\.typescript\.command/);
    writeUser({ lsp: { diagnosticsTimeoutMs: -1 } });
    expect(() => load()).toThrow(/config\.json: lsp\.diagnosticsTimeoutMs: must be a positive integer/);
    writeUser({ lsp: { "bad name": {} } });
    expect(() => load()).toThrow('config.json: lsp["bad name"]: key must be a server name ([A-Za-z0-9_.-]+)');
    writeUser({ lsp: true });
    expect(() => load()).toThrow(/config\.json: lsp/);
  });

  it("adds, overrides and disables servers; a new one without command and extensions is said", () => {
    writeUser({
      lsp: {
        diagnosticsTimeoutMs: 3000,
        ruby: { command: ["ruby-lsp"], extensions: ["rb"] },
        gopls: { disabled: true },
        typescript: { command: ["/opt/tsls", "--stdio"] },
        half: { command: ["x"] },
      },
    });
    const { servers, warnings } = configuredServers(load().config);
    expect(servers.map((s) => s.name)).toEqual(["typescript", "pyright", "rust-analyzer", "ruby"]);
    expect(servers[0]).toMatchObject({ commands: [["/opt/tsls", "--stdio"]], diagnostics: "published" });
    expect(servers[3].extensions).toEqual([".rb"]);
    expect(warnings).toEqual([
      "lsp.half ignored: a server that is not built in needs command and extensions",
    ]);
    writeUser({ lsp: false });
    expect(configuredServers(load().config).servers).toEqual([]);
  });

  it("an untrusted workspace may switch a server off, never name its program", () => {
    writeWs({ lsp: { typescript: { command: ["./evil"] }, pyright: { disabled: true, command: ["./x"] } } });
    const { config, warnings } = load();
    expect(config.lsp).toEqual({ pyright: { disabled: true } });
    expect(warnings).toEqual([
      ".tern/config.json: lsp.typescript ignored: this workspace is not in trustedWorkspaces",
      ".tern/config.json: lsp.pyright ignored: this workspace is not in trustedWorkspaces (only disabled applies)",
    ]);
  });

  it("config check lists the servers found and those missing", () => {
    const bin = join(dirs.workspace, "node_modules/.bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "gopls"), "#!/bin/sh\n");
    chmodSync(join(bin, "gopls"), 0o755);
    const lines = languageServerLines(load().config, dirs.workspace, { PATH: `${REPO_BIN}:/nonexistent` });
    // Named as found (not through its links: a rustup proxy answers to its name only).
    expect(lines[0]).toBe(
      `lsp: typescript  ${REPO_BIN}/typescript-language-server --stdio  (.ts .tsx .js .jsx .mjs .cjs .mts .cts)`,
    );
    expect(lines[1]).toBe(`lsp: pyright  ${REPO_BIN}/pyright-langserver --stdio  (.py .pyi)`);
    expect(lines[2]).toBe(
      "lsp: gopls  not run: node_modules/.bin/gopls is inside this workspace, which is not in trustedWorkspaces",
    );
    expect(lines[3]).toBe("lsp: rust-analyzer  missing: rust-analyzer not found on PATH");
  });
});
