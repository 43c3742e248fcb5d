// Puts frame-writer.ts where Ink writes its frames. Ink 6.8 builds its writer with
// `logUpdate.create(stdout)` when the UI is rendered and has no option for another one, so the
// build puts this module where Ink imports its `log-update.js` (scripts/build-plugins.mjs,
// `inkLogUpdate`): Ink's own writer is never bundled and no build file of Ink is reached by path.
// Ink 7+ needs Node 22, so 6.8 is the last version for Node 20.
import { createFrameWriter } from "./frame-writer.js";

interface TtyHandle {
  getWindowSize?(size: number[]): number;
}

/**
 * The terminal's width now, asked of the terminal (TIOCGWINSZ through the stream's tty handle).
 * `columns` and `getWindowSize()` are the values of the last resize event, which can be many
 * frames late while the process is busy streaming: frames written in between must be erased by
 * the rows the narrower terminal gives them.
 */
function terminalColumns(stream: Partial<NodeJS.WriteStream>): number {
  const handle = (stream as { _handle?: TtyHandle })._handle;
  const size: number[] = [];
  if (handle?.getWindowSize?.(size) === 0 && size[0] > 0) return size[0];
  return stream.columns || 80;
}

/** Ink's `logUpdate` as Ink's renderer uses it: one `create` per rendered stdout. */
const logUpdate = {
  create: (stream: NodeJS.WritableStream) =>
    createFrameWriter(stream, () => terminalColumns(stream as NodeJS.WriteStream)),
};

export default logUpdate;
