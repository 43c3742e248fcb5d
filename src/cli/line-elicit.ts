// R-MCP-3 in the line mode: an MCP server's form asked field by field on the terminal. First
// accept, decline or cancel; on accept each field is asked until what is typed fits it (an empty
// answer takes the default, or leaves an optional field out).
import type { ElicitAnswer, ElicitForm, ElicitValue } from "../vocab/elicit-form.js";
import { fieldQuestion, fieldValue } from "../vocab/elicit-form.js";
import { stripControlSequences } from "../workspace/terminal-text.js";

/** `ask` shows a question and resolves with the line as typed. */
export function lineElicit(ask: (question: string) => Promise<string>) {
  return async (form: ElicitForm, signal: AbortSignal): Promise<ElicitAnswer> => {
    process.stdout.write(`\nMCP server '${form.server}' asks: ${stripControlSequences(form.message)}\n`);
    const choice = (await ask("Answer it? [a]ccept / [d]ecline / [c]ancel: ")).trim().toLowerCase();
    if (choice.startsWith("d")) return { action: "decline" };
    if (!choice.startsWith("a")) return { action: "cancel" };
    const content: Record<string, ElicitValue> = {};
    for (const field of form.fields)
      for (;;) {
        if (signal.aborted) return { action: "cancel" };
        const check = fieldValue(field, await ask(`  ${stripControlSequences(fieldQuestion(field))}`));
        if (check.ok) {
          if (check.value !== undefined) content[field.name] = check.value;
          break;
        }
        process.stdout.write(`  ${check.error}\n`);
      }
    return { action: "accept", content };
  };
}
