// `tern run --output-schema <file>` (R-AUTO-1): the schema file read and compiled before any
// session opens, so a bad file is a one-line usage error (exit 2) with nothing written. Validation
// is ajv's (a well-kept JSON Schema validator); the draft follows the schema's own `$schema`.
import { readFileSync } from "node:fs";
import type { OutputContract } from "../engine/door/commands.js";
import { UsageError } from "./usage-error.js";

interface CompiledValidator {
  (value: unknown): boolean;
  errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null;
}
interface Validator {
  compile(schema: Record<string, unknown>): CompiledValidator;
}

export async function loadOutputSchema(path: string): Promise<OutputContract> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new UsageError(
      `--output-schema ${path}: ${(err as NodeJS.ErrnoException).code ?? "cannot be read"}`,
    );
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--output-schema ${path}: not JSON (${(err as Error).message})`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new UsageError(`--output-schema ${path}: a JSON Schema must be an object`);
  const object = schema as Record<string, unknown>;
  let validate: CompiledValidator;
  try {
    validate = (await validatorFor(object)).compile(object);
  } catch (err) {
    throw new UsageError(`--output-schema ${path}: not a valid JSON Schema: ${(err as Error).message}`);
  }
  return {
    schema: object,
    validate(value) {
      if (validate(value)) return [];
      return (validate.errors ?? []).map(
        (e) => `${e.instancePath || "(the value)"} ${e.message ?? "is invalid"}`,
      );
    },
  };
}

/** Draft 2020-12 and 2019-09 by their `$schema`, draft-07 otherwise (ajv's default). */
async function validatorFor(schema: Record<string, unknown>): Promise<Validator> {
  const draft = typeof schema.$schema === "string" ? schema.$schema : "";
  // strict: false — unknown keywords (titles, vendor extensions) are common in hand-written schemas.
  const options = { allErrors: true, strict: false };
  if (draft.includes("2020-12")) {
    return new (classOf(await import("ajv/dist/2020.js")))(options);
  }
  if (draft.includes("2019-09")) {
    return new (classOf(await import("ajv/dist/2019.js")))(options);
  }
  return new (classOf(await import("ajv")))(options);
}

/** `default`: the one export a CommonJS module keeps in every build (a bundle chunk or Node's own import). */
function classOf(module: unknown): new (options: object) => Validator {
  return (module as { default: new (options: object) => Validator }).default;
}
