// The screen, top to bottom (SPEC §9): transcript (written once with <Static>), live stream,
// side panel, queue panel, progress row, composer, status line. Components only draw state.
import { Static, Text, useCursor, useInput, useStdin, useStdout } from "ink";
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { TuiController } from "./controller.js";
import { highlighterSettled, loadHighlighter } from "./highlight.js";
import { collectWhenIdle } from "./idle-gc.js";
import { onInput } from "./keys.js";
import { lastFrame } from "./last-frame.js";
import { style } from "./ansi.js";
import { composerBox, liveRows } from "./live-view.js";
import { itemRows } from "./transcript-view.js";
import type { Item } from "./ui-state.js";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Re-renders every `ms` while `on`: drives the spinner and the retry countdown. The time is read
 * at each render, not at the last tick: a render for a new event (a retry due in 4 s) must not
 * use a reading older than the event, or the countdown starts a second high.
 */
function useNow(on: boolean, ms = 120): number {
  const [, setTick] = useState(0);
  const now = performance.now();
  const drawn = useRef(now);
  drawn.current = now;
  useEffect(() => {
    if (!on) return;
    // A tick only when nothing rendered in the last half period: while an answer streams the
    // store's renders (every RENDER_MS) read the time already, and a tick between them is a
    // render Ink's throttle merges with the next one (one of the two never drawn, see
    // RENDER_MS). Half, not all of it: the tick's own render lands a few ms after the tick.
    const timer = setInterval(() => {
      if (performance.now() - drawn.current >= ms / 2) setTick((n) => n + 1);
    }, ms);
    return () => clearInterval(timer);
  }, [on, ms]);
  return now;
}

/**
 * At most one render per this many ms after the first of a burst (a streamed token each is more
 * than a terminal shows). Above Ink's own frame throttle (maxFps 30: 34 ms, a debounce with that
 * maxWait): a render that comes within 34 ms of the last frame is held and debounced with the
 * next one, so at 33 ms Ink drew only every other render, the other's render and layout spent
 * for nothing. Past it, each render is a frame drawn at once.
 */
export const RENDER_MS = 40;

/**
 * The store's subscription, throttled: the first update renders at once (a key typed at an idle
 * prompt), the ones after it within RENDER_MS are drawn together at its end. While an answer
 * streams that is ~30 renders a second, as many as Ink draws, instead of one per token (R-UI-22:
 * CPU per token). `flush` draws what is held at once: after a key, so typing is never held.
 */
function useThrottled(subscribe: (listener: () => void) => () => void) {
  return useMemo(() => {
    let held: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    let last = Number.NEGATIVE_INFINITY;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      const listener = held;
      held = undefined;
      last = performance.now();
      listener?.();
    };
    const throttled = (listener: () => void) => {
      const unsubscribe = subscribe(() => {
        held = listener;
        if (timer) return;
        const wait = last + RENDER_MS - performance.now();
        if (wait <= 0) flush();
        else timer = setTimeout(flush, wait);
      });
      return () => {
        clearTimeout(timer);
        unsubscribe();
      };
    };
    return { subscribe: throttled, flush };
  }, [subscribe]);
}

/**
 * Memoized: Ink renders and writes at once, past its 30 fps throttle, whenever <Static>'s box
 * is updated, and a re-rendered <Static> updates it even with no new item. Without the memo
 * every streamed token cost a whole Ink render (R-UI-22).
 */
const Transcript = memo(function Transcript({ items, cols }: { items: Item[]; cols: number }) {
  return (
    <Static items={items}>{(item) => <Text key={item.id}>{itemRows(item, cols).join("\n")}</Text>}</Static>
  );
});

export function App({ ctl }: { ctl: TuiController }) {
  const store = useThrottled(ctl.store.subscribe);
  const state = useSyncExternalStore(store.subscribe, ctl.store.get);
  const { stdout } = useStdout();
  const ticking = state.phase !== null || state.side.pending !== null || state.approval !== null;
  const now = useNow(ticking);
  const [, setColoured] = useState(0);
  const [, setSize] = useState("");
  // Ink re-lays out its last output on resize but does not re-render: redraw at the new size now.
  useEffect(() => {
    const onResize = () => setSize(`${process.stdout.columns}x${process.stdout.rows}`);
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  const { internal_eventEmitter: inputEvents } = useStdin();
  // Prepended, so RawInput sees each raw event before useInput's listener turns it into a key.
  useEffect(() => {
    const feed = (data: string) => ctl.input.feed(data);
    inputEvents.prependListener("input", feed);
    return () => {
      inputEvents.off("input", feed);
    };
  }, [inputEvents, ctl]);
  // The highlighter loads while the model is asked, so code blocks are coloured when they arrive.
  useEffect(() => {
    if (state.busy) void loadHighlighter(() => setColoured((n) => n + 1));
  }, [state.busy]);
  // Garbage collected when a turn ends (idle-gc.ts), after the turn's last frame; a new turn cancels it.
  useEffect(() => (state.busy ? undefined : collectWhenIdle()), [state.busy]);
  useInput((input, key) => {
    onInput(ctl, input, key);
    store.flush();
  });
  // The real size: Ink's stdout reports a height it never reaches (run.tsx).
  const cols = process.stdout.columns || 80;
  const rows = process.stdout.rows || 24;
  const spinner = SPINNER[Math.floor(now / 120) % SPINNER.length];
  const live = liveRows(state, cols, rows, now, spinner);
  // The scrollback is written once: an answer with code waits (tens of ms) for the highlighter
  // instead of going out uncoloured for good.
  const settled = highlighterSettled();
  const committed = useMemo(() => {
    if (settled) return state.items;
    const first = state.items.findIndex((item) => item.kind === "assistant" && item.text.includes("```"));
    return first >= 0 ? state.items.slice(0, first) : state.items;
  }, [state.items, settled]);
  if (committed !== state.items) void loadHighlighter(() => setColoured((n) => n + 1));
  const boxed = composerBox(live.composer, cols, state.busy ? style.gray : style.cyan);
  lastFrame.side = live.sideScroll;
  // R-UI-26: the terminal's hidden cursor parked on the caret (the box's border and padding: 2
  // columns), at an idle prompt and while work runs; the frame writer finds the frame again from
  // there after a resize (caret-park.ts).
  const { setCursorPosition } = useCursor();
  setCursorPosition({ x: live.caret.col + 2, y: live.above.length + 1 + live.caret.row });
  return (
    <>
      <Transcript items={committed} cols={cols} />
      <Text>{[...live.above, ...boxed, ...live.menu, live.status].join("\n")}</Text>
    </>
  );
}
