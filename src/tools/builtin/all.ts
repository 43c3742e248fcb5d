// Every built-in tool's code, in the order their definitions are sent. Loaded by index.ts on the
// first tool batch (from the sources: at once), never on a headless run's start path.
// zod's English messages, before any tool's arguments are parsed (registry.parseArguments).
import "../../config/zod-messages.js";
import type { Tool } from "../types.js";
import { applyPatchTool } from "./apply-patch.js";
import { bashTool } from "./bash.js";
import { editFileTool } from "./edit-file.js";
import { editLinenoTool } from "./edit-lineno.js";
import { exitPlanTool } from "./exit-plan.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { jobInputTool, jobKillTool, jobOutputTool } from "./job-tools.js";
import { lspTool } from "./lsp.js";
import { readFileTool } from "./read-file.js";
import { recallTool } from "./recall.js";
import { taskTool } from "./task.js";
import { todoWriteTool } from "./todo-write.js";
import { webFetchTool } from "./web-fetch.js";
import { writeFileTool } from "./write-file.js";

export const builtinTools: Tool[] = [
  bashTool,
  readFileTool,
  writeFileTool,
  editFileTool,
  editLinenoTool,
  applyPatchTool,
  grepTool,
  globTool,
  lspTool,
  todoWriteTool,
  recallTool,
  webFetchTool,
  jobOutputTool,
  jobInputTool,
  jobKillTool,
  exitPlanTool,
  taskTool,
];

export { settleProcessKills, stopTagged } from "./process-groups.js";
export {
  applyPatchTool,
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
