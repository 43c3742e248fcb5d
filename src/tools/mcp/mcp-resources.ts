// What MCP servers hold besides tools (R-MCP-2): two read-only tools, offered while a ready
// server declares resources. `list_mcp_resources {server?}` lists resources and resource
// templates (uri, name, mimeType); `read_mcp_resource {server, uri}` reads one: text as text,
// images as image parts (the output gate holds them to the provider's limit), other binary
// content as a note. They change nothing, so they run unasked in every mode, plan included.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { errorMessage, fail } from "../results.js";
import type { Tool, ToolResult } from "../types.js";
import { codeFence } from "../../vocab/code-fence.js";
import type { ContentPart } from "../../vocab/messages.js";

export const LIST_RESOURCES = "list_mcp_resources";
export const READ_RESOURCE = "read_mcp_resource";
const MAX_PAGES = 20;

/** A ready server that declares resources, as these tools see it. */
export interface ResourceServer {
  name: string;
  client: Client;
  timeoutMs: number;
}

async function pages<T>(
  fetchPage: (cursor?: string) => Promise<{ nextCursor?: string; items: T[] }>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const got = await fetchPage(cursor);
    out.push(...got.items);
    cursor = got.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** One server's resources, every page of them. */
function listedResources(server: ResourceServer) {
  return pages(async (cursor) => {
    const r = await server.client.listResources(cursor ? { cursor } : {}, { timeout: server.timeoutMs });
    return { nextCursor: r.nextCursor, items: r.resources };
  });
}

/** One server's resources and templates as lines: `uri  name  (mimeType)`. */
export async function resourceLines(server: ResourceServer): Promise<string[]> {
  const opts = { timeout: server.timeoutMs };
  const resources = await listedResources(server);
  const templates = await pages(async (cursor) => {
    const r = await server.client.listResourceTemplates(cursor ? { cursor } : {}, opts);
    return { nextCursor: r.nextCursor, items: r.resourceTemplates };
  }).catch(() => []);
  const mime = (m?: string) => (m ? `  (${m})` : "");
  return [
    ...resources.map((r) => `${server.name}: ${r.uri}  ${r.name}${mime(r.mimeType)}`),
    ...templates.map(
      (t) => `${server.name}: ${t.uriTemplate}  ${t.name}  (template${t.mimeType ? `, ${t.mimeType}` : ""})`,
    ),
  ];
}

/** Every listed resource as `<server>:<uri>` (no templates); a server that fails to list is left out. */
export async function resourceUris(servers: ResourceServer[]): Promise<string[]> {
  const out: string[] = [];
  for (const server of servers)
    try {
      for (const r of await listedResources(server)) out.push(`${server.name}:${r.uri}`);
    } catch {
      // Its resources are not offered for completion; `list_mcp_resources` says why.
    }
  return out;
}

/** One resource's contents as a tool result: text as text, images as images, other bytes as a note. */
export async function readResource(server: ResourceServer, uri: string): Promise<ToolResult> {
  const read = await server.client.readResource({ uri }, { timeout: server.timeoutMs });
  const content: ContentPart[] = read.contents.map((c): ContentPart => {
    if ("text" in c && typeof c.text === "string") return { type: "text", text: c.text };
    const blob = "blob" in c && typeof c.blob === "string" ? c.blob : "";
    if (c.mimeType && /^image\/(png|jpeg|gif|webp)$/.test(c.mimeType))
      return { type: "image", mediaType: c.mimeType, data: blob };
    const bytes = Math.floor((blob.length * 3) / 4);
    return { type: "text", text: `[${c.uri}: ${c.mimeType ?? "binary"} content, ${bytes} bytes, not shown]` };
  });
  return {
    outcome: "ok",
    content: content.length > 0 ? content : [{ type: "text", text: "(empty resource)" }],
  };
}

const listSchema = lazySchema(() => z.object({ server: z.optional(z.string()) }));
const readSchema = lazySchema(() =>
  z.object({ server: z.string().check(z.minLength(1)), uri: z.string().check(z.minLength(1)) }),
);

export function resourceTools(servers: () => ResourceServer[]): Tool[] {
  const named = (name: string | undefined): ResourceServer[] | string => {
    const all = servers();
    if (name === undefined) return all;
    const one = all.find((s) => s.name === name);
    return one
      ? [one]
      : `no MCP server '${name}' with resources (servers: ${all.map((s) => s.name).join(", ") || "none"})`;
  };
  const list: Tool<{ server?: string }> = {
    name: LIST_RESOURCES,
    description: "Lists the resources and resource templates of MCP servers (uri, name, type).",
    get schema() {
      return listSchema();
    },
    jsonSchema: {
      type: "object",
      properties: { server: { type: "string", description: "one server (default: all)" } },
      additionalProperties: false,
    },
    kind: "read",
    paths: () => [],
    async run(args) {
      const which = named(args.server);
      if (typeof which === "string") return fail(which);
      const lines: string[] = [];
      for (const server of which) {
        try {
          lines.push(...(await resourceLines(server)));
        } catch (err) {
          lines.push(`${server.name}: could not list its resources: ${errorMessage(err)}`);
        }
      }
      return { outcome: "ok", content: [{ type: "text", text: lines.join("\n") || "(no resources)" }] };
    },
  };
  const read: Tool<{ server: string; uri: string }> = {
    name: READ_RESOURCE,
    description: "Reads one resource of an MCP server by its uri.",
    get schema() {
      return readSchema();
    },
    jsonSchema: {
      type: "object",
      properties: { server: { type: "string" }, uri: { type: "string" } },
      required: ["server", "uri"],
      additionalProperties: false,
    },
    kind: "read",
    paths: () => [],
    async run(args) {
      const which = named(args.server);
      if (typeof which === "string") return fail(which);
      try {
        return await readResource(which[0], args.uri);
      } catch (err) {
        return fail(`${READ_RESOURCE}: ${args.server}: ${args.uri}: ${errorMessage(err)}`);
      }
    },
  };
  return [list, read];
}

/** `@<server>:<uri>` in a prompt (R-MCP-2): the server a configured name picks, and the uri. */
export function resourceMentions(
  text: string,
  servers: readonly string[],
): { server: string; uri: string }[] {
  const out: { server: string; uri: string }[] = [];
  for (const m of text.matchAll(/(?:^|\s)@([a-z0-9_-]+):(\S+)/g)) {
    const uri = m[2].replace(/[.,;!?)\]]+$/, "");
    if (
      servers.includes(m[1]) &&
      /^[A-Za-z][\w+.-]*:/.test(uri) &&
      !out.some((o) => o.server === m[1] && o.uri === uri)
    )
      out.push({ server: m[1], uri });
  }
  return out;
}

/** A mentioned resource as the prompt's labelled block, like an `@file`'s; or the line why not. */
export async function resourceBlock(
  servers: ResourceServer[],
  mention: { server: string; uri: string },
): Promise<string> {
  const label = `Attached resource ${mention.server}:${mention.uri}`;
  const server = servers.find((s) => s.name === mention.server);
  if (!server) return `${label}: the server '${mention.server}' is not ready or holds no resources`;
  try {
    const result = await readResource(server, mention.uri);
    const text = result.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
    const fence = codeFence(text);
    return `${label}:\n${fence}\n${text}\n${fence}`;
  } catch (err) {
    return `${label}: could not read it: ${errorMessage(err)}`;
  }
}
