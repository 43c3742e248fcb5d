// `tern run --input-format jsonl` (R-AUTO-2): prompts and cancels as JSON lines on stdin, the
// prompts run as turns of one session, one after another, until EOF. Lines are read while a turn
// runs, so a `cancel` reaches the turn in progress; the session's own queue keeps the order. A bad
// line is one line on stderr and the run goes on: a long-lived driver should not lose its session
// to one typo. node:readline loads with the first such run: `tern run` imports this file at start.
import { buildPromptContent, InputError } from "../commands/prompt-input.js";
import type { ProviderApi } from "../config/types.js";
import type { Session } from "../engine/session.js";
import type { OutputContract } from "../engine/door/commands.js";
import type { TurnOutcome } from "../engine/door/outcome.js";
import type { ContentPart } from "../vocab/messages.js";

export interface JsonLinesRun {
  session: Session;
  api: ProviderApi;
  cwd: string;
  output?: OutputContract;
  /** Each finished turn (what `tern run` prints for it). */
  onOutcome(outcome: TurnOutcome): void;
  /** Whether a signal asked the run to end: no further line is started. */
  stopped(): boolean;
}

/** Reads stdin to its end; resolves with the last turn's outcome (undefined when none ran). */
export async function runJsonLines(run: JsonLinesRun): Promise<TurnOutcome | undefined> {
  const { createInterface } = await import("node:readline");
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let last: Promise<TurnOutcome | undefined> = Promise.resolve(undefined);
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (run.stopped()) break;
    if (line.trim() === "") continue;
    const parsed = parseLine(line, run);
    if ("error" in parsed) {
      process.stderr.write(`tern: stdin line ${lineNumber}: ${parsed.error}\n`);
      continue;
    }
    if (parsed.cancel) {
      run.session.cancel();
      continue;
    }
    // R-AUTO-2: each line is a turn of its own, never a follow-up joining the running one.
    const turn = run.session.send({
      type: "prompt",
      content: parsed.content,
      output: run.output,
      ownTurn: true,
    });
    last = turn.then((outcome) => {
      run.onOutcome(outcome);
      return outcome;
    });
  }
  return last;
}

type Parsed = { cancel: true } | { cancel?: false; content: ContentPart[] } | { error: string };

function parseLine(line: string, run: JsonLinesRun): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { error: `not JSON (${(err as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { error: 'expected an object such as {"type":"prompt","content":"…"}' };
  const message = value as Record<string, unknown>;
  if (message.type === "cancel") return { cancel: true };
  if (message.type !== "prompt")
    return { error: `type must be "prompt" or "cancel", not ${JSON.stringify(message.type)}` };
  try {
    return { content: promptContent(message.content, run) };
  } catch (err) {
    if (err instanceof InputError || err instanceof LineError) return { error: err.message };
    throw err;
  }
}

class LineError extends Error {}

/** `content`: a string, or parts `{type:"text",text}` and `{type:"image",path}` / `{type:"image",media_type,data}`. */
function promptContent(content: unknown, run: JsonLinesRun): ContentPart[] {
  if (typeof content === "string") {
    if (!content.trim()) throw new LineError("content is empty");
    return buildPromptContent(content, run.cwd, [], run.api);
  }
  if (!Array.isArray(content) || content.length === 0)
    throw new LineError("content must be a string or a non-empty array of parts");
  const texts: string[] = [];
  const imageFiles: string[] = [];
  const inline: ContentPart[] = [];
  content.forEach((part: Record<string, unknown>, i) => {
    if (part?.type === "text" && typeof part.text === "string") texts.push(part.text);
    else if (part?.type === "image" && typeof part.path === "string") imageFiles.push(part.path);
    else if (part?.type === "image" && typeof part.data === "string") {
      const mediaType = part.media_type ?? part.mediaType;
      if (typeof mediaType !== "string" || !mediaType.startsWith("image/"))
        throw new LineError(`content[${i}]: an inline image needs media_type (image/png, …)`);
      inline.push({ type: "image", mediaType, data: part.data });
    } else throw new LineError(`content[${i}]: expected {"type":"text","text"} or {"type":"image","path"}`);
  });
  const text = texts.join("\n");
  if (!text.trim() && imageFiles.length === 0 && inline.length === 0) throw new LineError("content is empty");
  return [...buildPromptContent(text, run.cwd, imageFiles, run.api), ...inline];
}
