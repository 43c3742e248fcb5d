// A form a person fills in for an MCP server mid-call (R-MCP-3): fields as the server's schema
// gives them, the answer, and the check every front end applies to what was typed.

export interface ElicitField {
  name: string;
  title?: string;
  description?: string;
  type: "string" | "number" | "integer" | "boolean";
  /** The allowed values of an enum field. */
  choices?: string[];
  required: boolean;
  default?: string | number | boolean;
}

export interface ElicitForm {
  server: string;
  message: string;
  fields: ElicitField[];
}

export type ElicitValue = string | number | boolean;
export type ElicitAnswer =
  | { action: "accept"; content: Record<string, ElicitValue> }
  | { action: "decline" }
  | { action: "cancel" };

/** Asks the person; absent where nobody can answer. */
export type Elicit = (form: ElicitForm, signal: AbortSignal) => Promise<ElicitAnswer>;

/** What one typed answer means for its field: a value (none for an empty optional field), or what is wrong. */
export type FieldCheck = { ok: true; value?: ElicitValue } | { ok: false; error: string };

export function fieldValue(field: ElicitField, typed: string): FieldCheck {
  const text = typed.trim();
  const bad = (error: string): FieldCheck => ({ ok: false, error });
  if (text === "") {
    if (field.default !== undefined) return { ok: true, value: field.default };
    return field.required ? bad(`${field.name} is required`) : { ok: true };
  }
  if (field.choices && !field.choices.includes(text))
    return bad(`${field.name} must be one of: ${field.choices.join(", ")}`);
  if (field.type === "boolean") {
    if (/^(y|yes|true|1)$/i.test(text)) return { ok: true, value: true };
    if (/^(n|no|false|0)$/i.test(text)) return { ok: true, value: false };
    return bad(`${field.name} must be yes or no`);
  }
  if (field.type === "number" || field.type === "integer") {
    const n = Number(text);
    if (!Number.isFinite(n) || (field.type === "integer" && !Number.isInteger(n)))
      return bad(`${field.name} must be ${field.type === "integer" ? "a whole number" : "a number"}`);
    return { ok: true, value: n };
  }
  return { ok: true, value: text };
}

/** A field as one question line: its title, what it takes, its default. */
export function fieldQuestion(field: ElicitField): string {
  const takes = field.choices ? field.choices.join("/") : field.type === "boolean" ? "y/n" : field.type;
  const def = field.default !== undefined ? `, default ${String(field.default)}` : "";
  const need = field.required ? "" : ", optional";
  const about = field.description ? ` — ${field.description}` : "";
  return `${field.title ?? field.name} (${takes}${need}${def})${about}: `;
}
