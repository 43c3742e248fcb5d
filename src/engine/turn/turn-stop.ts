// How a turn stops, as a value: the loop's steps return one instead of throwing, and the errors
// that cross its borders (provider, duration limit, bugs) are turned into one here.
import { ProviderError } from "../../provider/errors.js";
import { DurationLimitError } from "../../provider/retry.js";
import { DiskError } from "../../record/errors.js";
import type { StopReason } from "../../record/types.js";
import type { TurnError } from "../door/outcome.js";

export interface TurnStop {
  reason: StopReason;
  error?: TurnError;
}

export function stopWith(reason: StopReason, error?: TurnError): TurnStop {
  return error ? { reason, error } : { reason };
}

/** The stop an error thrown by a model call or compaction means; `aborted` wins over the error itself. */
export function stopFromError(err: unknown, aborted: boolean, durationHit: boolean): TurnStop {
  if (err instanceof DurationLimitError) return stopWith("duration_limit_reached", durationStopError(err));
  if (aborted) return stopWith(durationHit ? "duration_limit_reached" : "cancelled");
  if (err instanceof ProviderError) {
    if (err.errorClass === "cancelled") return stopWith("cancelled");
    const error: TurnError = { class: err.errorClass, message: err.message };
    if (err.status !== undefined) error.status = err.status;
    if (err.errorClass === "context_overflow") return stopWith("context_overflow", error);
    return stopWith("failed", error);
  }
  return stopWith("failed", internalError(err));
}

/** R-RETRY-2: a stop caused by the wait before a retry says how long that wait was, and who asked for it. */
function durationStopError(err: DurationLimitError): TurnError {
  const last = err.lastError;
  const seconds = Math.round(err.delayMs / 100) / 10;
  const wait =
    last.retryAfterMs !== undefined
      ? `the provider asked to wait ${seconds}s before retrying (retry-after)`
      : `the next retry was due in ${seconds}s`;
  const error: TurnError = {
    class: last.errorClass,
    message: `${wait}, which would pass the turn's duration limit; last error: ${last.message}`,
  };
  if (last.status !== undefined) error.status = last.status;
  return error;
}

/**
 * A throw inside the loop (a commit, tool batch or hook) ends the turn `failed`, not the session:
 * a disk that refused a write is class `disk` and names the file; anything else is a bug (`internal`).
 */
export function internalError(err: unknown): TurnError {
  if (err instanceof DiskError) return { class: "disk", message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { class: "internal", message };
}
