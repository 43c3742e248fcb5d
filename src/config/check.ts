// `tern config check`: every merged value with where it came from, then key presence and
// warnings. Secrets never appear: keys are reported only as set / not set, and header and
// tool-set environment values are hidden because they often carry tokens.
import type { LoadedConfig } from "./load.js";

const HIDDEN = "(hidden)";

function redact(key: string, value: unknown): unknown {
  if (/^providers(\.[\w$-]+|\["[^"]*"\])\.headers/.test(key) && !/\.headers$/.test(key)) return HIDDEN;
  if (key === "toolSets" && Array.isArray(value)) {
    const hide = (rec: Record<string, string> | undefined) =>
      Object.fromEntries(Object.keys(rec ?? {}).map((k) => [k, HIDDEN]));
    return value.map((set) => ({
      ...set,
      env: hide(set.env),
      ...(set.headers ? { headers: hide(set.headers) } : {}),
      ...(set.oauth?.clientSecret ? { oauth: { ...set.oauth, clientSecret: HIDDEN } } : {}),
      ...(typeof set.url === "string" ? { url: hideUrlCredentials(set.url) } : {}),
    }));
  }
  return typeof value === "string" ? hideUrlCredentials(value) : value;
}

/** A URL's user part (`user:token@`) and query values (`?key=…`) often carry credentials. */
function hideUrlCredentials(text: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(text);
  if (!m) return text;
  const [, scheme, authority, path, query = "", hash = ""] = m;
  const host = authority.includes("@")
    ? `${HIDDEN}@${authority.slice(authority.lastIndexOf("@") + 1)}`
    : authority;
  return `${scheme}${host}${path}${query.replace(/=[^&]*/g, `=${HIDDEN}`)}${hash}`;
}

export function formatConfigCheck(result: LoadedConfig, env: NodeJS.ProcessEnv = {}): string {
  const lines: string[] = ["Configuration (key = value  [source]):"];
  const entries = Object.entries(result.sources);
  if (!("model" in result.sources))
    lines.push("  model = (not set: chosen from the API keys in the environment)  [default]");
  for (const [key, source] of entries) {
    const value = redact(key, lookup(result.config, key));
    lines.push(`  ${key} = ${JSON.stringify(value)}  [${source}]`);
  }
  lines.push("", "API keys (read from the environment, never shown):");
  for (const id of Object.keys(result.config.providers).sort()) {
    const name = result.config.providers[id].apiKeyEnv;
    const state = !name ? "no key needed" : env[name] ? `${name} is set` : `${name} is not set`;
    lines.push(`  ${id}: ${state}`);
  }
  lines.push("", result.warnings.length ? "Warnings:" : "Warnings: none");
  for (const w of result.warnings) lines.push(`  ${w}`);
  return `${lines.join("\n")}\n`;
}

/** Reads a flattened key path (`a.b[0]["x/y"]`) back out of the config. */
function lookup(root: unknown, key: string): unknown {
  const re = /(?:^|\.)([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  let node: any = root;
  for (const m of key.matchAll(re)) {
    const seg = m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(m[3]));
    node = node?.[seg];
  }
  return node;
}
