// What the line mode answers when the engine asks a person (the door's requests, beside the
// TUI's approval-flow.ts and limit-flow.ts): a batch of calls to approve (y / n / a) and a budget
// limit to go past (y / n / yyy). Each asks one question on the terminal and maps the answer.
import type { PersonRequests } from "../engine/door/requests.js";
import { stripControlSequences } from "../workspace/terminal-text.js";

/** `ask` shows a question and resolves with the typed answer, trimmed and lower-cased. */
export function lineRequests(ask: (question: string) => Promise<string>): PersonRequests {
  return {
    approve: async (calls) => {
      process.stdout.write("\nThe model wants to run:\n");
      for (const call of calls) {
        process.stdout.write(`  ${call.name} ${stripControlSequences(call.arguments)}\n`);
        if (call.reason) process.stdout.write(`    (${stripControlSequences(call.reason)})\n`);
        if (call.always) process.stdout.write(`    [a]lways covers: ${stripControlSequences(call.always)}\n`);
      }
      const answer = await ask("Allow? [y]es / [n]o / [a]lways: ");
      const decision = answer.startsWith("a") ? "always" : answer.startsWith("y") ? "approved" : "denied";
      return new Map(calls.map((call) => [call.id, decision] as const));
    },
    onLimit: async (limit, used, allowed) => {
      const answer = await ask(
        `Limit reached (${limit} ${used}/${allowed}): continue? [y]es / [n]o / [yyy] for the rest of this turn: `,
      );
      return answer === "yyy" ? "all" : answer.startsWith("y") ? "yes" : "no";
    },
    offersOutsideSandbox: true,
  };
}
