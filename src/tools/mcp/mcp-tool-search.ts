// MCP tools beyond a threshold offered through a search (a first request kept small, as Claude Code's tool search
// does): when the ready servers offer more than `mcpToolSearchThreshold` tools (0: always all),
// the model gets one read-only `search_mcp_tools {query}` instead of them. Its result names the
// matching tools with their descriptions and input schemas, and those become callable from the
// next round on, kept for the rest of the session in the order they were found — so the tool
// list, and with it the request prefix, changes only when a search finds something new.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { fail } from "../results.js";
import type { Tool } from "../types.js";
import { LIST_RESOURCES, READ_RESOURCE } from "./mcp-resources.js";

export const SEARCH_TOOLS = "search_mcp_tools";
/** The most tools one search returns. */
const MAX_MATCHES = 5;
const querySchema = lazySchema(() => z.object({ query: z.string().check(z.minLength(1)) }));

export class McpToolSearch {
  /** Names found by a search, in the order found: offered from then on. */
  private readonly found: string[];
  private all: Tool[] = [];
  private readonly tool: Tool<{ query: string }>;

  /** `seed`: a resumed session's recorded tool names (the server tools among them were found). */
  constructor(
    private readonly threshold: number,
    seed: string[] = [],
  ) {
    this.found = seed.filter((n) => n !== SEARCH_TOOLS && n !== LIST_RESOURCES && n !== READ_RESOURCE);
    this.tool = {
      name: SEARCH_TOOLS,
      description:
        "Search the connected MCP servers' tools (too many to list here) by words of their names or " +
        "descriptions, or pick them with select:<name>,<name>. Matches come back with their input " +
        "schemas, callable from the next step on.",
      get schema() {
        return querySchema();
      },
      jsonSchema: {
        type: "object",
        properties: { query: { type: "string" } },
        required: ["query"],
        additionalProperties: false,
      },
      kind: "read",
      paths: () => [],
      run: async (args) => this.search(args.query),
    };
  }

  /** What the model is offered of the servers' tools this round. */
  offer(all: Tool[]): Tool[] {
    this.all = all;
    if (this.threshold <= 0 || all.length <= this.threshold) return all;
    const byName = new Map(all.map((t) => [t.name, t]));
    const always = all.filter((t) => t.name === LIST_RESOURCES || t.name === READ_RESOURCE);
    const found = this.found.flatMap((name) => byName.get(name) ?? []);
    return [...always, this.tool, ...found];
  }

  private search(query: string) {
    const hits = matches(this.all, query);
    if (hits.length === 0)
      return fail(`no MCP tool matches '${query}' (${this.all.length} tools; try other words)`);
    for (const t of hits) if (!this.found.includes(t.name)) this.found.push(t.name);
    const text = hits
      .map((t) => `${t.name}: ${t.description}\n  input schema: ${JSON.stringify(t.jsonSchema ?? {})}`)
      .join("\n");
    return {
      outcome: "ok" as const,
      content: [{ type: "text" as const, text: `${text}\n(callable from the next step)` }],
    };
  }
}

/** Tools picked by `select:a,b`, else ranked by how many query words their name and description hold. */
export function matches(tools: Tool[], query: string): Tool[] {
  const select = /^select:(.+)$/i.exec(query.trim());
  if (select) {
    const names = select[1].split(",").map((n) => n.trim());
    return names.flatMap((n) => tools.find((t) => t.name === n) ?? []);
  }
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
  return tools
    .map((t) => {
      const name = t.name.toLowerCase();
      const about = `${name} ${t.description.toLowerCase()}`;
      return { t, score: words.reduce((s, w) => s + (name.includes(w) ? 2 : about.includes(w) ? 1 : 0), 0) };
    })
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_MATCHES)
    .map((m) => m.t);
}
