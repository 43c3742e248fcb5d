// The screen, top to bottom (SPEC §9): transcript (written once with <Static>), live stream,
// side panel, queue panel, progress row, composer, status line. Components only draw state.
import { Box, Static, Text, useInput, useStdin, useStdout } from "ink";
import { useEffect, useState, useSyncExternalStore } from "react";
import type { TuiController } from "./controller.js";
import { onInput } from "./keys.js";
import { CompletionMenu, visible } from "./slash-menu.js";
import { money } from "../config/pricing.js";
import { type Item, phaseText, type SideState, type UiState } from "./state.js";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Re-renders every `ms` while `on`: drives the spinner and the retry countdown. */
function useNow(on: boolean, ms = 120): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [on, ms]);
  return now;
}

const COLORS: Partial<Record<Item["kind"], string>> = {
  user: "cyan",
  tool: "yellow",
  error: "red",
  turn: "gray",
  retry: "magenta",
  info: "gray",
};

/** The last lines of a long text, so the live region never outgrows the screen (no full redraw). */
export function tail(text: string, maxLines: number, cols: number): string {
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    if (line.length === 0) lines.push("");
    for (let i = 0; i < line.length; i += cols) lines.push(line.slice(i, i + cols));
  }
  return lines.slice(-maxLines).join("\n");
}

function Transcript({ items }: { items: Item[] }) {
  return (
    <Static items={items}>
      {(item) => (
        <Text key={item.id} color={COLORS[item.kind]}>
          {item.text}
        </Text>
      )}
    </Static>
  );
}

function SidePanel({ side, spinner }: { side: SideState; spinner: string }) {
  const pending = side.pending;
  const shown = pending ?? side.thread[side.index];
  if (!shown) return null;
  let body: string;
  if (pending?.error) body = `side question failed: ${pending.error}`;
  else if (pending && !pending.text)
    body = `${spinner} ${pending.reasoning ? "Thinking" : "Waiting for the model"}`;
  else body = pending ? pending.text : (shown as { answer: string }).answer;
  const position = pending ? "" : ` (${side.index + 1}/${side.thread.length})`;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="blue" paddingX={1}>
      <Text color="blue">
        btw: {shown.question}
        {position}
      </Text>
      <Text>{visible(body)}</Text>
      <Text color="gray">Esc/Enter/Space close · ←/→ earlier answers · x clear thread · Ctrl+C cancel</Text>
    </Box>
  );
}

function QueuePanel({ queue, held }: { queue: string[]; held: boolean }) {
  if (queue.length === 0) return null;
  return (
    <Box flexDirection="column">
      {queue.map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the queue is FIFO text; the position is the identity.
        <Text key={i} color="cyan">
          queued: {text}
        </Text>
      ))}
      <Text color="gray">
        {held ? "queue held after Ctrl+C: empty Enter sends it" : "empty Enter sends the queue now"} · ↑ edits
        the last one
      </Text>
    </Box>
  );
}

function Prompts({ state }: { state: UiState }) {
  if (state.approval) {
    return (
      <Box flexDirection="column">
        <Text color="yellow">The model wants to run:</Text>
        {state.approval.map((call) => (
          <Box key={call.id} flexDirection="column">
            <Text>
              {"  "}
              {call.name} {call.arguments.length > 300 ? `${call.arguments.slice(0, 300)}…` : call.arguments}
            </Text>
            {call.reason ? <Text color="gray">{`    (${call.reason})`}</Text> : null}
            {call.always ? <Text color="gray">{`    [a]lways covers: ${call.always}`}</Text> : null}
          </Box>
        ))}
        <Text color="yellow">Allow? [y]es / [n]o / [a]lways</Text>
      </Box>
    );
  }
  if (state.limit) {
    return (
      <Text color="yellow">
        Limit reached ({state.limit.limit} {state.limit.used}/{state.limit.allowed}): continue? [y]es / [n]o /
        [yyy] for the rest of this turn
      </Text>
    );
  }
  return null;
}

/** The composer text with the cursor cell drawn inverse; later lines line up under the first. */
function Composer({ text, cursor, prompt }: { text: string; cursor: number; prompt: string }) {
  const indent = (s: string) => visible(s).replace(/\n/g, `\n${" ".repeat(prompt.length)}`);
  const at = text[cursor];
  const cell = at === undefined || at === "\n" ? " " : visible(at);
  const after = (at === "\n" ? "\n" : "") + text.slice(cursor + 1);
  return (
    <Text>
      {prompt}
      {indent(text.slice(0, cursor))}
      <Text inverse>{cell}</Text>
      {indent(after)}
    </Text>
  );
}

function StatusLine({ state }: { state: UiState }) {
  const s = state.status;
  const pct = s.contextWindow ? Math.round((s.lastPrompt / s.contextWindow) * 100) : 0;
  return (
    <Text color="gray">
      {s.model}
      {/* Off is the quiet default; a level in force is always named. */}
      {s.thinking && s.thinking !== "off" ? ` · thinking ${s.thinking}` : ""} · context {pct}% · {s.tokens}{" "}
      tokens · {money(s.cost)}
      {s.sideCost !== 0 ? ` (+ ${money(s.sideCost)} side questions)` : ""} · session {s.sessionId}
    </Text>
  );
}

export function App({ ctl }: { ctl: TuiController }) {
  const state = useSyncExternalStore(ctl.store.subscribe, ctl.store.get);
  const { stdout } = useStdout();
  const ticking = state.phase !== null || state.side.pending !== null;
  const now = useNow(ticking);
  const { internal_eventEmitter: inputEvents } = useStdin();
  // Prepended, so RawInput sees each raw event before useInput's listener turns it into a key.
  useEffect(() => {
    const feed = (data: string) => ctl.input.feed(data);
    inputEvents.prependListener("input", feed);
    return () => {
      inputEvents.off("input", feed);
    };
  }, [inputEvents, ctl]);
  useInput((input, key) => onInput(ctl, input, key));
  const cols = stdout.columns || 80;
  const rows = stdout.rows || 24;
  const spinner = SPINNER[Math.floor(now / 120) % SPINNER.length];
  return (
    <>
      <Transcript items={state.items} />
      <Box flexDirection="column" width={cols}>
        {state.liveReasoning && !state.live ? (
          <Text dimColor>{tail(state.liveReasoning, Math.max(3, Math.floor((rows - 14) / 2)), cols)}</Text>
        ) : null}
        {state.live ? <Text>{tail(state.live, Math.max(3, rows - 14), cols)}</Text> : null}
        {state.side.open ? <SidePanel side={state.side} spinner={spinner} /> : null}
        <QueuePanel queue={state.queue} held={state.held} />
        {state.phase ? (
          <Text color="green">
            {spinner} {phaseText(state.phase, now)}
          </Text>
        ) : null}
        <Prompts state={state} />
        <Box borderStyle="single" borderColor={state.busy ? "gray" : "cyan"} paddingX={1}>
          <Composer text={state.composer} cursor={state.cursor} prompt={state.limit ? "answer› " : "› "} />
        </Box>
        <CompletionMenu menu={state.menu} cols={cols} />
        <StatusLine state={state} />
      </Box>
    </>
  );
}
