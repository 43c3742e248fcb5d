// What ToolSets knows of each server: its state as front ends see it, and the record it keeps.
import type { ToolSetConfig } from "../../config/types.js";
import type { Connection } from "./mcp-connect.js";
import type { ListedTool } from "./mcp-list.js";

export type ServerState = "starting" | "ready" | "failed" | "closed";

export interface ServerStatus {
  name: string;
  transport: "stdio" | "http";
  state: ServerState;
  /** Why it failed or closed. */
  reason?: string;
  /** The server's own tool names. */
  tools: string[];
}

export interface Server {
  config: ToolSetConfig;
  state: ServerState;
  reason?: string;
  conn?: Connection;
  defs: ListedTool[];
  started: Promise<void>;
  /** Bumped by each (re)start, so a stale start cannot overwrite a newer one. */
  generation: number;
  /** Stops a start in progress (tern is closing): its child must not outlive tern. */
  abortStart?: () => void;
  /** A new session in progress after the server forgot the old one; shared by concurrent calls. */
  renewing?: Promise<unknown>;
}

export const newServer = (config: ToolSetConfig): Server => ({
  config,
  state: "starting",
  defs: [],
  started: Promise.resolve(),
  generation: 0,
});
