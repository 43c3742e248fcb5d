// MCP prompts (R-WF-2): a server's prompts become slash commands `/mcp__<set>__<prompt>`; their
// arguments are given by position. `prompts/list` is read to the end (bounded pages); a prompt's
// messages come back as text (resources as text naming their uri), the way results do.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export interface McpPrompt {
  set: string;
  name: string;
  description: string;
  /** Argument names in the server's order, and whether each is required. */
  arguments: { name: string; required: boolean }[];
}

const MAX_PAGES = 100;

export async function listAllPrompts(client: Client, set: string, timeoutMs: number): Promise<McpPrompt[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const prompts: McpPrompt[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
    for (const p of result.prompts)
      prompts.push({
        set,
        name: p.name,
        description: p.description ?? "",
        arguments: (p.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true })),
      });
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return prompts;
}

/** The prompt's messages as one text, the arguments taken by position. */
export async function promptText(
  client: Client,
  prompt: McpPrompt,
  words: readonly string[],
  timeoutMs: number,
): Promise<string> {
  const args: Record<string, string> = {};
  prompt.arguments.forEach((a, i) => {
    // The last argument takes the rest of the words, so a free-text argument needs no quotes.
    const value = i === prompt.arguments.length - 1 ? words.slice(i).join(" ") : words[i];
    if (value !== undefined && value !== "") args[a.name] = value;
  });
  const missing = prompt.arguments.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  if (missing.length > 0)
    throw new Error(`/mcp__${prompt.set}__${prompt.name} needs ${missing.map((m) => `<${m}>`).join(" ")}`);
  const result = await client.getPrompt({ name: prompt.name, arguments: args }, { timeout: timeoutMs });
  return result.messages
    .map((m) => {
      const c = m.content as { type: string; text?: string; resource?: { uri: string; text?: string } };
      if (c.type === "text") return c.text ?? "";
      if (c.type === "resource" && c.resource)
        return `[resource ${c.resource.uri}]\n${c.resource.text ?? ""}`;
      return `[${c.type} content not shown]`;
    })
    .join("\n\n");
}
