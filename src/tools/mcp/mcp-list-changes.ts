// Servers that change what they offer while running (R-MCP-3): `notifications/tools/list_changed`
// makes the server's tool list be read again, and the next model request waits for that read (a
// server announces the change before it answers the call that made it, so the tool is offered the
// moment that call returned). Prompts and resources are read live (`/mcp__…` prompts, the
// resource tools), so their notifications only need to be heard.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { untilAborted } from "./until-aborted.js";

export class ListChanges {
  private readonly pending = new Set<Promise<void>>();

  /** Hears one server's list changes; `reread` reads its tool list again. */
  follow(client: Client, reread: () => Promise<void>): void {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      const work = reread();
      this.pending.add(work);
      return work.finally(() => this.pending.delete(work));
    });
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {});
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {});
  }

  /** Resolves once the lists being read again are read (or on abort). */
  async settled(signal?: AbortSignal): Promise<void> {
    if (this.pending.size > 0) await untilAborted(Promise.all(this.pending), signal);
  }
}
