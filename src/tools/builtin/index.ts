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
 * with `toolJsonSchema`: converting them again in every process costs a headless start several
 * ms. Run from the sources (tests), it is undefined and the registry converts as usual.
 */
declare const __TERN_TOOL_SCHEMAS__: string | undefined;
if (typeof __TERN_TOOL_SCHEMAS__ === "string") {
  const schemas = JSON.parse(__TERN_TOOL_SCHEMAS__) as Record<string, Record<string, unknown>>;
  for (const tool of builtinTools) tool.jsonSchema = schemas[tool.name];
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
