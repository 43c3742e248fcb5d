// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values name ${VAR} literally
// toolSets entries (R-EXT): stdio or Streamable HTTP, never both; their timers; rules that name a
// set no entry defines are warned about; `${VAR}` expansion of env and headers.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { formatConfigCheck } from "../../src/config/check.js";
import { ruleToolSet, unknownToolSetWarnings } from "../../src/config/rule-sets.js";
import { parseConfigText } from "../../src/config/file/parse-layer.js";
import { expandVars, tellingLine } from "../../src/tools/mcp/mcp-connect.js";

const L = ".tern/config.json";
function errorOf(config: unknown): string {
  try {
    parseConfigText(JSON.stringify(config), L);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
}

describe("toolSets config", () => {
  it.each([
    [{ name: "a" }, "toolSets[0].command: required (or url for an HTTP server)"],
    [
      { name: "a", command: "x", url: "http://h/mcp" },
      "toolSets[0].url: a tool set has either command or url, not both",
    ],
    [{ name: "a", url: "ftp://h" }, "toolSets[0].url: must be an http(s) URL"],
    [{ name: "a", url: "http://h", headers: { A: 1 } }, "toolSets[0].headers.A: must be a string"],
    [
      { name: "a", command: "x", startTimeoutSeconds: 0 },
      "toolSets[0].startTimeoutSeconds: must be a number > 0",
    ],
  ])("%j → %s", (set, expected) => {
    expect(errorOf({ toolSets: [set] })).toContain(`${L}: ${expected}`);
  });

  it("accepts an HTTP entry with headers and timers", () => {
    const layer = parseConfigText(
      JSON.stringify({
        toolSets: [{ name: "web", url: "https://h/mcp", headers: { A: "b" }, startTimeoutSeconds: 5 }],
      }),
      L,
    );
    expect(layer.toolSets).toEqual([
      {
        name: "web",
        url: "https://h/mcp",
        headers: { A: "b" },
        args: [],
        env: {},
        timeoutSeconds: 120,
        startTimeoutSeconds: 5,
      },
    ]);
  });

  it("config check hides header and env values of tool sets", () => {
    const set = {
      name: "web",
      url: "https://h/mcp",
      headers: { Authorization: "Bearer sk-SECRET" },
      args: [],
      env: { T: "sk-SECRET" },
      timeoutSeconds: 1,
    };
    const text = formatConfigCheck({
      config: { toolSets: [set], providers: {} } as never,
      sources: { toolSets: "user" },
      warnings: [],
    });
    expect(text).not.toContain("sk-SECRET");
    expect(text).toContain('"headers":{"Authorization":"(hidden)"}');
    expect(text).toContain('"env":{"T":"(hidden)"}');
  });

  it("names the tool set a rule points at, for the unknown-set warning", () => {
    expect(ruleToolSet("fs__write_file(*)")).toBe("fs");
    expect(ruleToolSet("mcp__fs__*")).toBe("fs");
    expect(ruleToolSet("mcp__fs")).toBe("fs");
    expect(ruleToolSet("bash(rm *)")).toBeNull();
    expect(ruleToolSet("*__x")).toBeNull();
    const warnings = unknownToolSetWarnings(
      { mode: "ask", allow: ["mcp__fs__read"], deny: ["ghost__x(*)"] },
      [{ name: "fs", command: "x", args: [], env: {}, timeoutSeconds: 1 }],
    );
    expect(warnings).toEqual([
      `permissions.deny rule "ghost__x(*)" names tool set 'ghost', which no toolSets entry defines: it matches nothing`,
    ]);
  });

  it("expands ${VAR} and ${VAR:-default}; an unset one is an error naming it", () => {
    expect(expandVars("Bearer ${T}", { T: "abc" }, "headers.A")).toBe("Bearer abc");
    expect(expandVars("${T:-dflt}/x", {}, "env.X")).toBe("dflt/x");
    expect(() => expandVars("${NOPE}", {}, "env.X")).toThrow(
      "env.X names ${NOPE}, which is not set in tern's environment",
    );
  });

  it("picks the telling line of a failed server's stderr", () => {
    const node = [
      "node:internal/modules/cjs/loader:1228",
      "  throw err;",
      "  ^",
      "",
      "Error: Cannot find module '/x/server.js'",
      "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)",
    ].join("\n");
    expect(tellingLine(node)).toBe("Error: Cannot find module '/x/server.js'");
    const py =
      "Traceback (most recent call last):\n  File \"s.py\", line 1\nModuleNotFoundError: No module named 'mcp'\n";
    expect(tellingLine(py)).toBe("ModuleNotFoundError: No module named 'mcp'");
    expect(tellingLine("starting\nlistening failed badly\n")).toBe("listening failed badly");
  });
});
