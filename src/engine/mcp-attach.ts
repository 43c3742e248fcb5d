// `@<server>:<uri>` in a prompt (R-MCP-2): the MCP resource's text joins the prompt as a labelled
// block, as an `@file` does, for every front end alike (the UI, `--plain`, `tern run`, ACP, the
// library), because it happens where the session takes a prompt. Waits for the servers to start.
import { loadResources } from "../tools/mcp/index.js";
import type { ContentPart } from "../vocab/messages.js";
import type { SessionCore } from "./core.js";

export async function attachResources(core: SessionCore, content: ContentPart[]): Promise<ContentPart[]> {
  if (!core.toolSetsLoading) return content;
  const text = content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
  if (!/(?:^|\s)@[a-z0-9_-]+:\S/.test(text)) return content;
  const sets = await core.toolSetsLoading;
  const { resourceBlock, resourceMentions } = await loadResources();
  const mentions = resourceMentions(text, sets.names());
  if (mentions.length === 0) return content;
  await sets.ready();
  const servers = sets.resourceServers();
  const blocks: ContentPart[] = [];
  for (const mention of mentions) blocks.push({ type: "text", text: await resourceBlock(servers, mention) });
  const firstOther = content.findIndex((p, i) => i > 0 && p.type !== "text");
  const at = firstOther < 0 ? content.length : firstOther;
  return [...content.slice(0, at), ...blocks, ...content.slice(at)];
}
