// Reads what `tern run --json` printed and writes the Action's outputs (GITHUB_OUTPUT) and the
// job summary (GITHUB_STEP_SUMMARY): the answer, the diff, the stop reason and the cost.
import { appendFileSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const [eventsFile, diffFile, exitCode] = process.argv.slice(2);
const events = readFileSync(eventsFile, "utf8")
  .split("\n")
  .filter((line) => line.startsWith("{"))
  .map((line) => JSON.parse(line));
// A sub-agent's events carry its `session` id: the run's own are those without one, while the
// cost adds up every session's turns (the children are billed too).
const own = events.filter((e) => e.session === undefined);
const session = own.find((e) => e.type === "session");
const end = own.findLast((e) => e.type === "turn_end");
const answer = own.findLast((e) => e.type === "assistant_message")?.text ?? "";
const diff = readFileSync(diffFile, "utf8");
const ends = events.filter((e) => e.type === "turn_end");
const cost =
  end && ends.every((e) => typeof e.cost === "number")
    ? ends.reduce((sum, e) => sum + e.cost, 0).toFixed(4)
    : "unknown";
const stop = end?.stop_reason ?? "failed";
const error = own.findLast((e) => e.type === "error")?.message;

/** A multi-line value in GITHUB_OUTPUT's heredoc form, with a delimiter no answer can contain. */
function output(name, value) {
  if (!process.env.GITHUB_OUTPUT) return;
  const delimiter = `tern_${randomBytes(12).toString("hex")}`;
  appendFileSync(process.env.GITHUB_OUTPUT, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

output("result", answer.trim());
output("stop-reason", stop);
output("cost", cost);
output("session-id", session?.id ?? "");

const fence = (text) => "````\n" + text.replace(/````/g, "``\u200b``") + "\n````";
const summary = [
  "## tern",
  "",
  `**${stop}** · exit ${exitCode} · cost ${cost === "unknown" ? "unknown" : `$${cost}`} · ` +
    `${end?.model_calls ?? 0} model calls, ${end?.tool_calls ?? 0} tool calls · session \`${session?.id ?? "?"}\``,
  "",
  ...(error ? [`> ${error}`, ""] : []),
  "### Answer",
  "",
  answer.trim() || "_(no answer)_",
  "",
  "### Changes",
  "",
  diff.trim() ? fence(diff.trimEnd()) : "_(no file changed)_",
  "",
].join("\n");
if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, summary);
else process.stdout.write(summary);
