// `oauth` of an HTTP MCP server (R-MCP-1) in both places it is written: a tool set in tern's
// config (clientId, clientSecret, callbackPort, scope) and Claude Code's `.mcp.json` entry
// (`{"type":"http","url":…,"oauth":{"clientId":…,"callbackPort":…,"scopes":…}}`, the fields its
// docs name: "Use pre-configured OAuth credentials", "Use a fixed OAuth callback port", `oauth.scopes`).
// What tern cannot honour is said in one line; a client secret never shows in `config check`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatConfigCheck } from "../../src/config/check.js";
import { ConfigError } from "../../src/config/errors.js";
import { parseConfigText } from "../../src/config/file/parse-layer.js";
import { projectMcpServers } from "../../src/config/project-mcp.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs | undefined;
afterEach(() => dirs?.cleanup());

function readMcpJson(servers: Record<string, unknown>) {
  dirs = makeTempDirs();
  mkdirSync(dirs.workspace, { recursive: true });
  writeFileSync(join(dirs.workspace, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
  return projectMcpServers({
    cwd: dirs.workspace,
    home: dirs.home,
    canonicalCwd: dirs.workspace,
    trusted: true,
    taken: [],
  });
}

describe("oauth of an MCP server", () => {
  it(".mcp.json: Claude Code's oauth clientId, callbackPort and scopes are read", () => {
    const read = readMcpJson({
      docs: {
        type: "http",
        url: "https://mcp.example.com/mcp",
        oauth: { clientId: "tern-app", callbackPort: 8765, scopes: "read write" },
      },
    });
    expect(read.warnings).toEqual([]);
    expect(read.toolSets[0]).toMatchObject({
      name: "docs",
      url: "https://mcp.example.com/mcp",
      oauth: { clientId: "tern-app", callbackPort: 8765, scope: "read write" },
    });
  });

  it(".mcp.json: what cannot be honoured is said in one line each, and the server still starts", () => {
    const read = readMcpJson({
      docs: {
        type: "http",
        url: "https://mcp.example.com/mcp",
        oauth: { clientId: "tern-app", callbackPort: "x", authServerMetadataUrl: "https://a/.well-known" },
      },
    });
    const file = join(dirs!.workspace, ".mcp.json");
    expect(read.warnings).toEqual([
      `${file}: server docs: oauth.callbackPort is not supported or not valid here; ignored`,
      `${file}: server docs: oauth.authServerMetadataUrl is not supported or not valid here; ignored`,
    ]);
    expect(read.toolSets[0].oauth).toEqual({ clientId: "tern-app" });
  });

  it("a tool set's oauth is checked, and config check hides the client secret", () => {
    const layer = parseConfigText(
      JSON.stringify({
        toolSets: [
          {
            name: "docs",
            url: "https://mcp.example.com/mcp",
            oauth: { clientId: "c1", clientSecret: "cs-VERY-SECRET", callbackPort: 8765, scope: "mcp" },
          },
        ],
      }),
      "config.json",
    ) as { toolSets: any[] };
    expect(layer.toolSets[0].oauth).toEqual({
      clientId: "c1",
      clientSecret: "cs-VERY-SECRET",
      callbackPort: 8765,
      scope: "mcp",
    });
    let error = "";
    try {
      parseConfigText(
        JSON.stringify({ toolSets: [{ name: "d", url: "https://h/mcp", oauth: { callbackPort: 0 } }] }),
        "config.json",
      );
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      error = (e as Error).message;
    }
    expect(error).toMatch(/^config\.json: toolSets\[0\]\.oauth\.callbackPort: /);
    const text = formatConfigCheck({
      config: { toolSets: [{ ...layer.toolSets[0], args: [], env: {} }], providers: {} } as never,
      sources: { toolSets: "user" },
      warnings: [],
    });
    expect(text).not.toContain("cs-VERY-SECRET");
    expect(text).toContain('"clientSecret":"(hidden)"');
    expect(text).toContain('"clientId":"c1"');
  });
});
