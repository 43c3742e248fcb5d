// The `lsp` key (R-LSP-1): `false` turns language servers off; otherwise `diagnosticsTimeoutMs`
// and, per server name, `{command, extensions, env?, initializationOptions?, disabled?}` adding or
// overriding a built-in server (a built-in one may set only the fields it changes).
import * as z from "zod/mini";
import { positiveInt, stringList } from "./schema-rules.js";
import type { LspConfig } from "./types.js";

const SERVER_NAME_RE = /^[A-Za-z0-9_.-]+$/;

const server = () =>
  z.strictObject({
    command: z.optional(
      z
        .array(z.string())
        .check(z.refine((c) => c.length > 0 && c[0].length > 0, "must name a program first")),
    ),
    extensions: z.optional(stringList()),
    env: z.optional(z.record(z.string(), z.string())),
    initializationOptions: z.optional(z.unknown()),
    disabled: z.optional(z.boolean()),
  });

/** `lsp`: false, or an object of `diagnosticsTimeoutMs` and servers by name. */
export const lspSchema = () => {
  const servers = server();
  const timeout = positiveInt();
  return z.optional(
    z.union([
      z.literal(false),
      z.record(z.string(), z.unknown()).check(
        z.superRefine((rec, ctx) => {
          for (const [key, value] of Object.entries(rec)) {
            const parsed = (key === "diagnosticsTimeoutMs" ? timeout : servers).safeParse(value);
            if (key !== "diagnosticsTimeoutMs" && !SERVER_NAME_RE.test(key))
              ctx.addIssue({
                code: "custom",
                path: [key],
                message: "key must be a server name ([A-Za-z0-9_.-]+)",
              });
            else if (!parsed.success)
              for (const issue of parsed.error.issues)
                ctx.addIssue({ code: "custom", path: [key, ...issue.path], message: issue.message });
          }
        }),
      ),
    ]),
  ) as unknown as z.ZodMiniOptional<z.ZodMiniType<LspConfig>>;
};
