// One config file's text → a validated layer, or ONE error line naming the file, the line and
// column of a JSON syntax error, or the key path and what it must be (R-CFG-1).
import type * as z from "zod/mini";
import { ConfigError } from "../errors.js";
import { findJsonSyntaxError } from "../json-position.js";
import "../zod-messages.js";
import { formatPath } from "../key-path.js";
import { type ConfigLayer, layerSchemaFor } from "../schema.js";

export { formatPath } from "../key-path.js";

type Issue = z.core.$ZodIssue;

/** Descends into the union branch that got furthest, so `executionBudget.x` errors name `x`. */
function pickIssue(issue: Issue): Issue {
  if (issue.code !== "invalid_union") return issue;
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    for (const inner of branch) {
      if (inner.path.length > 0 || inner.code === "unrecognized_keys") {
        if (!best) best = { ...inner, path: [...issue.path, ...inner.path] } as Issue;
      }
    }
  }
  return best ? pickIssue(best) : issue;
}

function describe(issue: Issue): { path: PropertyKey[]; text: string } {
  const path = [...issue.path];
  if (issue.code === "unrecognized_keys") {
    path.push(issue.keys[0]);
    return { path, text: "unknown key" };
  }
  if (issue.code === "invalid_type") {
    const input = (issue as { input?: unknown }).input;
    if (input === undefined) return { path, text: "required" };
    const expected: Record<string, string> = {
      object: "must be an object",
      array: "must be an array",
      string: "must be a string",
      boolean: "must be true or false",
    };
    return { path, text: expected[issue.expected] ?? `must be ${issue.expected}` };
  }
  return { path, text: issue.message };
}

/** Validates parsed JSON as a layer; `label` names the file in the error. */
export function validateLayer(data: unknown, label: string): ConfigLayer {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ConfigError(`${label}: must be a JSON object`);
  }
  // jitless: zod would otherwise compile a parser with `new Function` on the first parse, which
  // costs more than the one parse of a config file it is for.
  const result = layerSchemaFor(Object.keys(data)).safeParse(data, { reportInput: true, jitless: true });
  if (result.success) return result.data as ConfigLayer;
  const { path, text } = describe(pickIssue(result.error.issues[0]));
  throw new ConfigError(path.length ? `${label}: ${formatPath(path)}: ${text}` : `${label}: ${text}`);
}

/** Parses and validates one config file's text. */
export function parseConfigText(raw: string, label: string): ConfigLayer {
  // A byte-order mark is what some editors put first; JSON.parse rejects it (§10).
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    if (text.trim() === "") throw new ConfigError(`${label}: empty file (expected a JSON object)`);
    const at = findJsonSyntaxError(text);
    throw new ConfigError(
      at ? `${label}:${at.line}:${at.column}: invalid JSON: ${at.message}` : `${label}: invalid JSON`,
    );
  }
  return validateLayer(data, label);
}
