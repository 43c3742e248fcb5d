// The process's telemetry, once started: the CLI flushes it before exiting, whichever command ran.
// Kept apart from the SDK so the entry can call `shutdownTelemetry` without loading it.

interface Flushable {
  shutdown(): Promise<void>;
}

let active: Flushable | undefined;

export function registerTelemetry(telemetry: Flushable): void {
  active = telemetry;
}

/** Flushes and stops the exporters, if any started; never throws, never takes longer than `ms`. */
export async function shutdownTelemetry(ms = 2000): Promise<void> {
  const telemetry = active;
  active = undefined;
  if (!telemetry) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((done) => {
    timer = setTimeout(done, ms);
  });
  await Promise.race([telemetry.shutdown().catch(() => undefined), deadline]);
  clearTimeout(timer);
}
