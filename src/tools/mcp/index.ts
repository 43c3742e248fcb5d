// The face of mcp/: the MCP client (with the SDK, ~100 ms to compile) loads only when a tool set
// is configured or approved (engine/tool-sync.ts asks here).
export const loadToolSets = () => import("./mcp.js");
