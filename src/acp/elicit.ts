// R-MCP-3 in ACP: an MCP server's form goes to the client as ACP's `elicitation/create` (form
// mode, scoped to the session) when the client said at `initialize` that it shows forms; a client
// that did not is never asked, and the form is declined with a line on stderr. What comes back is
// checked against the fields as any front end's answer is.
import type { ElicitAnswer, ElicitForm, ElicitValue } from "../vocab/elicit-form.js";
import { fieldValue } from "../vocab/elicit-form.js";

type Request = (method: "elicitation/create", params: Record<string, unknown>) => Promise<unknown>;

/** The form's fields as the flat JSON Schema both MCP and ACP forms use. */
export function formSchema(form: ElicitForm): Record<string, unknown> {
  return {
    type: "object",
    properties: Object.fromEntries(
      form.fields.map((f) => [
        f.name,
        {
          type: f.type,
          ...(f.title ? { title: f.title } : {}),
          ...(f.description ? { description: f.description } : {}),
          ...(f.choices ? { enum: f.choices } : {}),
          ...(f.default !== undefined ? { default: f.default } : {}),
        },
      ]),
    ),
    required: form.fields.filter((f) => f.required).map((f) => f.name),
  };
}

export function acpElicit(sessionId: () => string, showsForms: () => boolean, request: Request) {
  return async (form: ElicitForm): Promise<ElicitAnswer> => {
    if (!showsForms()) {
      process.stderr.write(
        `notice: MCP server '${form.server}' asked for input (${form.message}); declined: this client shows no forms\n`,
      );
      return { action: "decline" };
    }
    const answer = (await request("elicitation/create", {
      sessionId: sessionId(),
      mode: "form",
      message: `${form.server}: ${form.message}`,
      requestedSchema: formSchema(form),
    })) as { action?: string; content?: Record<string, unknown> };
    if (answer?.action === "decline") return { action: "decline" };
    if (answer?.action !== "accept") return { action: "cancel" };
    const content: Record<string, ElicitValue> = {};
    for (const field of form.fields) {
      const check = fieldValue(
        field,
        answer.content?.[field.name] === undefined ? "" : String(answer.content[field.name]),
      );
      if (!check.ok) return { action: "cancel" };
      if (check.value !== undefined) content[field.name] = check.value;
    }
    return { action: "accept", content };
  };
}
