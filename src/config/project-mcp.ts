// Project MCP servers (R-WF-3): a workspace's `.mcp.json`, Claude Code's file —
// `{"mcpServers": {"<name>": {"command", "args", "env"} | {"type": "http", "url", "headers", "oauth"}}}` —
// adds tool sets only in a trusted workspace (`trustedWorkspaces`) or once the person approved
// them for this workspace (kept in `$TERN_HOME/mcp-approvals.json`, an entry per server with its
// definition, so a changed server asks again). Otherwise each is listed as not
// started, with why. A cloned repository must not start its own programs (R-CFG-2).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolSetConfig } from "./types.js";
import { TOOL_SET_NAME_RE } from "./value-rules.js";

export const PROJECT_MCP_FILE = ".mcp.json";
export const MCP_APPROVALS_FILE = "mcp-approvals.json";

export interface ProjectServer {
  /** The name in `.mcp.json`. */
  name: string;
  /** The tool set name (R-EXT naming). */
  set: string;
  started: boolean;
  /** Why it was not started. */
  why?: string;
  /** Not started only because nobody approved it for this workspace yet (the UI offers it). */
  awaitingApproval?: boolean;
  /** Its definition as JSON text, what an approval records. */
  definition: string;
}

export interface ProjectServers {
  /** Absolute path of the `.mcp.json` read (absent when there is none). */
  file?: string;
  servers: ProjectServer[];
  toolSets: ToolSetConfig[];
  warnings: string[];
}

type Approvals = Record<string, Record<string, string>>;

export function readApprovals(home: string): Approvals {
  try {
    const data = JSON.parse(readFileSync(join(home, MCP_APPROVALS_FILE), "utf8"));
    return typeof data === "object" && data !== null ? (data as Approvals) : {};
  } catch {
    return {};
  }
}

const stringMap = (v: unknown): Record<string, string> =>
  typeof v === "object" && v !== null && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};

/**
 * Claude Code's `oauth` of an HTTP entry (R-MCP-1): `clientId`, `callbackPort` and `scopes` (one
 * space-separated string) are read; what tern cannot honour is said in `unread`, never ignored.
 */
function oauthOf(entry: Record<string, unknown>, unread: string[]): ToolSetConfig["oauth"] {
  const o = entry.oauth;
  if (o === undefined) return undefined;
  if (typeof o !== "object" || o === null || Array.isArray(o)) {
    unread.push("oauth must be an object; ignored");
    return undefined;
  }
  const out: NonNullable<ToolSetConfig["oauth"]> = {};
  for (const [key, value] of Object.entries(o)) {
    if (key === "clientId" && typeof value === "string" && value) out.clientId = value;
    else if (
      key === "callbackPort" &&
      Number.isInteger(value) &&
      (value as number) > 0 &&
      (value as number) < 65536
    )
      out.callbackPort = value as number;
    else if ((key === "scopes" || key === "scope") && typeof value === "string" && value.trim())
      out.scope = value.trim();
    else unread.push(`oauth.${key} is not supported or not valid here; ignored`);
  }
  return out;
}

/** One `.mcp.json` entry as a tool set, or why it cannot be one. */
export function toToolSet(
  set: string,
  entry: Record<string, unknown>,
  unread: string[] = [],
): ToolSetConfig | string {
  const type = entry.type ?? (typeof entry.url === "string" ? "http" : "stdio");
  if (type === "stdio") {
    if (typeof entry.command !== "string" || !entry.command) return "needs a command";
    const args = Array.isArray(entry.args)
      ? entry.args.filter((a): a is string => typeof a === "string")
      : [];
    return { name: set, command: entry.command, args, env: stringMap(entry.env), timeoutSeconds: 120 };
  }
  if (type === "http") {
    if (typeof entry.url !== "string" || !/^https?:\/\//.test(entry.url)) return "needs an http(s) url";
    const oauth = oauthOf(entry, unread);
    return {
      name: set,
      url: entry.url,
      headers: stringMap(entry.headers),
      args: [],
      env: {},
      timeoutSeconds: 120,
      ...(oauth ? { oauth } : {}),
    };
  }
  return `type ${JSON.stringify(type)} is not supported (stdio or http)`;
}

export function projectMcpServers(opts: {
  cwd: string;
  home: string;
  canonicalCwd: string;
  trusted: boolean;
  /** Tool set names the configuration has already: those win. */
  taken: readonly string[];
}): ProjectServers {
  const file = join(opts.cwd, PROJECT_MCP_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { servers: [], toolSets: [], warnings: [] };
    return {
      file,
      servers: [],
      toolSets: [],
      warnings: [`${file}: cannot read it (${code ?? "error"}); no project servers`],
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return {
      file,
      servers: [],
      toolSets: [],
      warnings: [`${file}: not valid JSON (${(e as Error).message}); no project servers`],
    };
  }
  const entries = (data as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof entries !== "object" || entries === null || Array.isArray(entries))
    return {
      file,
      servers: [],
      toolSets: [],
      warnings: [`${file}: mcpServers: must be an object; no project servers`],
    };
  const approved = readApprovals(opts.home)[opts.canonicalCwd] ?? {};
  const out: ProjectServers = { file, servers: [], toolSets: [], warnings: [] };
  const taken = new Set(opts.taken);
  for (const [name, value] of Object.entries(entries)) {
    const set = name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
    // The definition itself is what an approval keeps: any change to it asks again.
    const definition = JSON.stringify(value);
    const server: ProjectServer = { name, set, started: false, definition };
    out.servers.push(server);
    const unread: string[] = [];
    const tool =
      typeof value === "object" && value !== null
        ? toToolSet(set, value as Record<string, unknown>, unread)
        : "must be an object";
    for (const what of unread) out.warnings.push(`${file}: server ${name}: ${what}`);
    if (typeof tool === "string") server.why = tool;
    else if (!TOOL_SET_NAME_RE.test(set)) server.why = "its name has no letters or digits";
    else if (taken.has(set)) server.why = `a configured tool set is named ${set}`;
    else if (!opts.trusted && approved[name] !== definition) {
      server.why = "not approved for this workspace (not in trustedWorkspaces; approve with /mcp approve)";
      server.awaitingApproval = true;
    } else {
      server.started = true;
      taken.add(set);
      out.toolSets.push({ ...tool, fromFile: file });
    }
    if (server.why) out.warnings.push(`${file}: server ${name} not started: ${server.why}`);
  }
  return out;
}
