// Waiting on servers that a cancel must be able to cut short.

/** Resolves once `work` has settled, or as soon as `signal` aborts. */
export async function untilAborted(work: Promise<unknown>, signal?: AbortSignal): Promise<void> {
  if (!signal) return void (await work);
  if (signal.aborted) return;
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
