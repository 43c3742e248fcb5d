// The face of mcp/: the MCP client (with the SDK, ~100 ms to compile) loads only when a tool set
// is configured or approved (engine/tool-sync.ts asks here).
export const loadToolSets = () => import("./mcp.js");
/** Resources (R-MCP-2) for `@server:uri` in a prompt. */
export const loadResources = () => import("./mcp-resources.js");
/** Logging in and out (R-MCP-1), for `tern mcp` and `/mcp login|logout`. */
export const loadAuth = () => import("./auth/index.js");
