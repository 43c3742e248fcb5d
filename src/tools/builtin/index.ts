// Every built-in tool, in the order their definitions are sent.
import type { Tool } from "../types.js";
import { bashTool } from "./bash.js";
import { editFileTool } from "./edit-file.js";
import { editLinenoTool } from "./edit-lineno.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { readFileTool } from "./read-file.js";
import { recallTool } from "./recall.js";
import { todoWriteTool } from "./todo-write.js";
import { webFetchTool } from "./web-fetch.js";
import { writeFileTool } from "./write-file.js";

export const builtinTools: Tool[] = [
  bashTool,
  readFileTool,
  writeFileTool,
  editFileTool,
  editLinenoTool,
  grepTool,
  globTool,
  todoWriteTool,
  recallTool,
  webFetchTool,
];

/**
 * The built-in tools' JSON schemas, as `scripts/build.mjs` computed them from the zod schemas
 * with `toolJsonSchema`: converting them in every process would put the converter on the start
 * path and cost a headless start several ms. Run from the sources (tests), they are converted
 * here, once, as the module loads.
 */
declare const __TERN_TOOL_SCHEMAS__: string | undefined;
if (typeof __TERN_TOOL_SCHEMAS__ === "string") {
  const schemas = JSON.parse(__TERN_TOOL_SCHEMAS__) as Record<string, Record<string, unknown>>;
  for (const tool of builtinTools) tool.jsonSchema = schemas[tool.name];
} else {
  const { toolJsonSchema } = await import("../json-schema.js");
  for (const tool of builtinTools) tool.jsonSchema = toolJsonSchema(tool.schema);
}

export {
  bashTool,
  editFileTool,
  editLinenoTool,
  globTool,
  grepTool,
  readFileTool,
  recallTool,
  todoWriteTool,
  webFetchTool,
  writeFileTool,
};
