// `tern run --output-schema` (R-AUTO-1): the turn's final answer must be one JSON value valid
// against a JSON Schema. The contract travels with the prompt; the loop asks it whether an answer
// holds, gives the model one corrective round with the validation errors, then stops the turn as
// `output_invalid`. The validator itself is the caller's (the CLI compiles the schema with ajv),
// so the engine stays free of it and loads nothing for turns without a schema.
import type { ResolvedModel } from "../../config/types.js";
import type { OutputContract } from "../door/commands.js";

/** A turn's contract and how it went so far. */
export interface OutputState {
  contract: OutputContract;
  corrections: number;
  /** The valid value, once an answer held. */
  value?: unknown;
}

export type Verdict =
  | { next: "accept" }
  | { next: "correct"; note: string }
  | { next: "stop"; error: { class: "output_invalid"; message: string } };

/** What the loop does with a final answer: accept it, ask once more with the errors, or stop. */
export function judgeFinalAnswer(output: OutputState, text: string): Verdict {
  const check = checkAnswer(output.contract, text);
  if (check.ok) {
    output.value = check.value;
    return { next: "accept" };
  }
  if (output.corrections < OUTPUT_CORRECTIONS) {
    output.corrections++;
    return { next: "correct", note: correctionNote(check.errors) };
  }
  const message = `the answer is not valid against the output schema: ${check.errors.join("; ")}`;
  return { next: "stop", error: { class: "output_invalid", message } };
}

export type OutputCheck = { ok: true; value: unknown } | { ok: false; errors: string[] };

/** Corrective rounds before the turn stops as `output_invalid`. */
export const OUTPUT_CORRECTIONS = 1;

/**
 * Whether the model's wire enforces a JSON Schema itself: every Responses model (`text.format`),
 * and Chat Completions at OpenAI (`response_format`); other servers vary, so they get the
 * instruction unless the model says `structuredOutput: true` (or `false` turns it off anywhere).
 */
export function enforcesSchema(model: ResolvedModel): boolean {
  if (model.info.structuredOutput !== undefined) return model.info.structuredOutput;
  if (model.endpoint.api === "openai-responses") return true;
  return model.endpoint.api === "openai-chat" && model.providerId === "openai";
}

/** The text that asks for the value where the wire does not enforce it (added to the prompt). */
export function schemaInstruction(schema: Record<string, unknown>): string {
  return (
    "Your final answer must be exactly one JSON value, with no prose and no code fence around it, " +
    `valid against this JSON Schema:\n${JSON.stringify(schema)}`
  );
}

/** Parses an answer (one JSON value; a single fenced block around it is forgiven) and validates it. */
export function checkAnswer(contract: OutputContract, text: string): OutputCheck {
  const body = unfenced(text.trim());
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      errors: [body === "" ? "the answer is empty, not a JSON value" : `not JSON: ${why}`],
    };
  }
  const errors = contract.validate(value);
  return errors.length === 0 ? { ok: true, value } : { ok: false, errors };
}

/** The note of the corrective round: what was wrong, and what to send instead. */
export function correctionNote(errors: readonly string[]): string {
  return (
    "Your final answer is not valid against the required JSON Schema:\n" +
    errors.map((e) => `- ${e}`).join("\n") +
    "\nReply again with only the corrected JSON value."
  );
}

function unfenced(text: string): string {
  const fenced = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(text);
  return fenced ? fenced[1].trim() : text;
}
