// A server asking the person mid-call (R-MCP-3, MCP `elicitation/create`): its requested schema
// (a flat object of string, number, integer, boolean and enum fields) becomes a form any front end
// can show, and what the person typed is checked and typed against it before it goes back.
// Where nobody can answer (`tern run`), the request is declined and the person told afterwards.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Elicit, ElicitField, ElicitForm } from "../../vocab/elicit-form.js";

export type { Elicit };

type Property = Record<string, unknown>;

export function formOf(server: string, message: string, schema: unknown): ElicitForm {
  const s = (schema ?? {}) as { properties?: Record<string, Property>; required?: string[] };
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  const fields = Object.entries(s.properties ?? {}).map(([name, p]): ElicitField => {
    // Untitled enums (`enum`) and titled ones (`oneOf: [{const, title}]`) alike: the values are the choices.
    const choices = Array.isArray(p.enum)
      ? p.enum.map(String)
      : Array.isArray(p.oneOf)
        ? (p.oneOf as { const?: unknown }[]).map((o) => String(o.const))
        : undefined;
    const type = p.type === "number" || p.type === "integer" || p.type === "boolean" ? p.type : "string";
    const def = p.default;
    return {
      name,
      ...(typeof p.title === "string" ? { title: p.title } : {}),
      ...(typeof p.description === "string" ? { description: p.description } : {}),
      type,
      ...(choices ? { choices } : {}),
      required: required.has(name),
      ...(typeof def === "string" || typeof def === "number" || typeof def === "boolean"
        ? { default: def }
        : {}),
    };
  });
  return { server, message, fields };
}

/** Forms a person is filling in, per connection: a call's timer does not run out meanwhile. */
const openForms = new WeakMap<Client, number>();
export const formsOpen = (client: Client): number => openForms.get(client) ?? 0;

/** Answers a server's form requests through `elicit`, or declines them with a notice. */
export function answerElicitations(
  client: Client,
  server: string,
  elicit: Elicit | undefined,
  notify: (text: string) => void,
): void {
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const params = request.params as { mode?: string; message?: string; requestedSchema?: unknown };
    const form = formOf(server, params.message ?? "", params.requestedSchema);
    // tern announces forms only (`elicitation: {}`); a URL-mode request is refused, not shown as an empty form.
    if (params.mode !== undefined && params.mode !== "form") {
      notify(`MCP server '${server}' asked for input (${form.message}); declined: only forms are supported`);
      return { action: "decline" };
    }
    if (!elicit) {
      notify(`MCP server '${server}' asked for input (${form.message}); declined: nobody can answer here`);
      return { action: "decline" };
    }
    openForms.set(client, formsOpen(client) + 1);
    try {
      return await elicit(form, extra.signal);
    } catch {
      return { action: "cancel" };
    } finally {
      openForms.set(client, formsOpen(client) - 1);
    }
  });
}
