// After the answer is whole (a finish reason, Anthropic's stop_reason) only trailing frames can
// follow — usage, [DONE], message_stop — and they follow at once. A server that keeps the
// connection open after it, silent or sending keep-alive comments or pings without end (DeepSeek
// under load), must not hold a finished answer: reading ends a short grace after the finish, and
// the connection is released.

/** How long trailing frames may take after the finish, at most. */
export const AFTER_FINISH_GRACE_MS = 10_000;

/** A signal that follows `outer` and can also be aborted alone (to release one request's connection). */
export function linkedAbort(outer: AbortSignal): { signal: AbortSignal; abort(): void; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (outer.aborted) controller.abort();
  else outer.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispose: () => outer.removeEventListener("abort", onAbort),
  };
}

/**
 * Yields `frames` until they end, or until `graceMs` after `finished()` first held: then `release`
 * is called (it must make the pending read fail, e.g. by aborting the request) and iteration ends.
 */
export async function* endSoonAfterFinish<T>(
  frames: AsyncIterable<T>,
  finished: () => boolean,
  graceMs: number,
  release: () => void,
): AsyncGenerator<T, void, void> {
  const iterator = frames[Symbol.asyncIterator]();
  let deadline: Promise<"late"> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let exhausted = false;
  try {
    for (;;) {
      if (!deadline && finished()) {
        deadline = new Promise((resolve) => {
          timer = setTimeout(() => resolve("late"), graceMs);
        });
      }
      const next = iterator.next();
      const step = deadline ? await Promise.race([next, deadline]) : await next;
      if (step === "late") {
        // The pending read fails once the request is released; nothing of it matters now.
        next.catch(() => {});
        release();
        return;
      }
      if (step.done) {
        exhausted = true;
        return;
      }
      yield step.value;
    }
  } finally {
    if (timer) clearTimeout(timer);
    // A reader that stopped early (at [DONE], message_stop) closes the frames, and so the connection.
    if (!exhausted) iterator.return?.(undefined)?.catch(() => {});
  }
}
