// Which edit tool a model is given (R-EDIT-1): `models["…"].editTool` in config, else the
// catalogue's entry, else Codex's own rule — OpenAI's gpt-5 models and codex models were trained on
// apply_patch — and edit_file (with edit_lineno) for every other model.

/** The choices of `models["…"].editTool`, once for the schema, the types and the tools. */
export const EDIT_TOOL_CHOICES = ["apply_patch", "edit_file"] as const;
export type EditToolChoice = (typeof EDIT_TOOL_CHOICES)[number];

/** Models given apply_patch when nothing says otherwise: `openai/gpt-5*` and any id naming codex. */
export function defaultEditTool(modelId: string): EditToolChoice {
  const id = modelId.toLowerCase();
  return id.startsWith("openai/gpt-5") || id.includes("codex") ? "apply_patch" : "edit_file";
}

export function editToolFor(modelId: string, info: { editTool?: EditToolChoice }): EditToolChoice {
  return info.editTool ?? defaultEditTool(modelId);
}
