// Which edit tool a model is given (R-EDIT-1): `models["…"].editTool` in config, else the
// catalogue's entry, else Codex's own rule — OpenAI's gpt-5 models and codex models were trained on
// apply_patch — and edit_file (with edit_lineno) for every other model.
import type { ModelInfo } from "./types.js";

export type EditToolChoice = "apply_patch" | "edit_file";

export const EDIT_TOOL_CHOICES: readonly EditToolChoice[] = ["apply_patch", "edit_file"];

/** Models given apply_patch when nothing says otherwise: `openai/gpt-5*` and any id naming codex. */
export function defaultEditTool(modelId: string): EditToolChoice {
  const id = modelId.toLowerCase();
  return id.startsWith("openai/gpt-5") || id.includes("codex") ? "apply_patch" : "edit_file";
}

export function editToolFor(modelId: string, info: Pick<ModelInfo, "editTool">): EditToolChoice {
  return info.editTool ?? defaultEditTool(modelId);
}
