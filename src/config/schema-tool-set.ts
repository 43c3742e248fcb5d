// The config schema of one MCP server (R-EXT), apart from schema.ts to keep that file small.
import * as z from "zod/mini";
import { mcpOAuth } from "./mcp-oauth.js";
import { httpUrl, rule, stringList, timerSeconds, TOOL_SET_NAME_RE } from "./schema-rules.js";

const optional = z.optional;
const stringMap = () => z.record(z.string(), z.string());

/** One MCP server (R-EXT): stdio (`command`) or Streamable HTTP (`url`), never both. */
export const toolSet = () =>
  z
    .strictObject({
      name: rule<string>((v) => typeof v === "string" && TOOL_SET_NAME_RE.test(v), "must match [a-z0-9_-]+"),
      command: optional(
        rule<string>((v) => typeof v === "string" && v.length > 0, "must be a non-empty string"),
      ),
      args: z._default(stringList(), []),
      env: z._default(stringMap(), {}),
      url: optional(httpUrl()),
      headers: optional(stringMap()),
      timeoutSeconds: z._default(timerSeconds(), 120),
      startTimeoutSeconds: z._default(timerSeconds(), 30),
      oauth: optional(mcpOAuth()), // R-MCP-1
    })
    .check(
      z.superRefine((set, ctx) => {
        if (set.command === undefined && set.url === undefined)
          ctx.addIssue({
            code: "custom",
            path: ["command"],
            message: "required (or url for an HTTP server)",
          });
        if (set.command !== undefined && set.url !== undefined)
          ctx.addIssue({
            code: "custom",
            path: ["url"],
            message: "a tool set has either command or url, not both",
          });
      }),
    );
