// R-MCP-1: an HTTP MCP server's OAuth client, when it is registered beforehand (`oauth` in a
// tool set, and Claude Code's `oauth` in `.mcp.json`): the same fields in both places.
import * as z from "zod/mini";

export const mcpOAuth = () =>
  z.strictObject({
    clientId: z.optional(z.string()),
    clientSecret: z.optional(z.string()),
    callbackPort: z.optional(z.int().check(z.gte(1), z.lte(65535))),
    scope: z.optional(z.string()),
  });
