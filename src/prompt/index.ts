export {
  type AssembleOptions,
  assembleSystemPrompt,
  assembleSystemPromptWithWarnings,
} from "./assemble.js";
export { basePrompt } from "./base.js";
export { findSkills, formatSkillsIndex, type Skill } from "./skills.js";
