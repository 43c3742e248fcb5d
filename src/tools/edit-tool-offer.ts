// A session offers one way of editing (R-EDIT-1): apply_patch, or edit_file with edit_lineno. The
// other tools are withheld, so a call naming one anyway is told which tool to use instead.
import type { ToolRegistry } from "./registry.js";
import type { EditToolChoice } from "../config/edit-tool.js";

const EDIT_FILE_TOOLS = ["edit_file", "edit_lineno"];
const PATCH_TOOL = "apply_patch";

export function offerEditTool(registry: ToolRegistry, choice: EditToolChoice): void {
  if (choice === "apply_patch") {
    // A session without apply_patch (a sub-agent that may not edit) keeps what it has.
    if (!registry.get(PATCH_TOOL)) return;
    for (const name of EDIT_FILE_TOOLS)
      if (registry.get(name))
        registry.withhold(name, `${name} is not offered to this model; edit files with apply_patch.`);
    return;
  }
  if (registry.get(PATCH_TOOL))
    registry.withhold(PATCH_TOOL, "apply_patch is not offered to this model; edit files with edit_file.");
}
