// `tern run --json`'s event lines (R-CLI-3, §10): control characters escaped (jsonText), and a
// huge tool argument printed once: the `assistant_message` carries it, and the `tool_call` that
// follows for the same call says how long it was instead of repeating it (a 50 MB argument
// otherwise costs 100 MB of output).
import type { EngineEvent } from "../engine/door/events.js";
import { jsonText } from "../vocab/json-text.js";

/** Arguments at least this long are not repeated in `tool_call`. */
export const REPEAT_LIMIT = 64 * 1024;

export function jsonEventWriter(write: (line: string) => void): (event: EngineEvent) => void {
  const printed = new Map<string, string>();
  return (event) => {
    // A live tail for the terminal UI (R-UI-18): R-CLI-3's set of event types has no room for it.
    if (event.type === "tool_output") return;
    if (event.type === "assistant_message") {
      printed.clear();
      for (const c of event.tool_calls)
        if (c.arguments.length >= REPEAT_LIMIT) printed.set(c.id, c.arguments);
    } else if (event.type === "tool_call" && printed.get(event.id) === event.arguments) {
      const { arguments: args, presentation, ...rest } = event;
      // The presentation's preview is the same text again (a file's new content, a command).
      const { preview: _same, ...shown } = presentation ?? {};
      write(
        `${jsonText({ ...rest, ...(presentation && { presentation: shown }), arguments: "", arguments_omitted: { chars: args.length, in: "assistant_message" } })}\n`,
      );
      return;
    }
    write(`${jsonText(event)}\n`);
  };
}
