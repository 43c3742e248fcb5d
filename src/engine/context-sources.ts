// What the system prompt was made of, for the record's `context` line and `/context` (R-WF-1,
// R-UI-24): each instruction file and skill with a token estimate (chars / 4, as compaction counts).
import type { AssembledPrompt } from "../prompt/assemble.js";
import type { ContextSource } from "../record/types.js";

const tokens = (text: string) => Math.ceil(text.length / 4);

export function contextSources(prompt: AssembledPrompt): ContextSource[] {
  return [
    ...prompt.instructions.files.map((f) => ({
      kind: "instructions" as const,
      path: f.path,
      tokens: tokens(f.text),
    })),
    ...prompt.skills.map((s) => ({
      kind: "skill" as const,
      path: s.path,
      tokens: tokens(`- ${s.name}: ${s.description} (${s.path})`),
    })),
  ];
}
