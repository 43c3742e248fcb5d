// Puts frame-writer.ts where Ink writes its frames. Ink 6.8 builds its writer with
// `logUpdate.create(stdout)` when the UI is rendered and has no option for another one, so the
// build puts this module where Ink imports its `log-update.js` (scripts/build-plugins.mjs,
// `inkLogUpdate`): Ink's own writer is never bundled and no build file of Ink is reached by path.
// Ink 7+ needs Node 22, so 6.8 is the last version for Node 20.
import { terminalReflow } from "./caret-park.js";
import { createFrameWriter } from "./frame-writer.js";

interface TtyHandle {
  getWindowSize?(size: number[]): number;
}

/**
 * The terminal's size now, asked of the terminal (TIOCGWINSZ through the stream's tty handle).
 * `columns` and `getWindowSize()` are the values of the last resize event, which can be many
 * frames late while the process is busy streaming: frames written in between must be erased by
 * the rows the narrower terminal gives them.
 */
function terminalSize(stream: Partial<NodeJS.WriteStream>): { cols: number; rows: number } {
  const handle = (stream as { _handle?: TtyHandle })._handle;
  const size: number[] = [];
  if (handle?.getWindowSize?.(size) === 0 && size[0] > 0) return { cols: size[0], rows: size[1] };
  return { cols: stream.columns || 80, rows: stream.rows || 0 };
}

/** Ink's `logUpdate` as Ink's renderer uses it: one `create` per rendered stdout. */
const logUpdate = {
  create: (stream: NodeJS.WritableStream) => {
    const tty = stream as NodeJS.WriteStream;
    // One ioctl a write: the writer asks for the width first, then for the height.
    let rows = 0;
    const columns = () => {
      const size = terminalSize(tty);
      rows = size.rows;
      return size.cols;
    };
    return createFrameWriter(stream, columns, { rows: () => rows, reflow: terminalReflow(process.env) });
  },
};

export default logUpdate;
