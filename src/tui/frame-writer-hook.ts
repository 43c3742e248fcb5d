// Puts frame-writer.ts where Ink writes its frames. Ink 6.8 builds its writer with
// `logUpdate.create(stdout)` when the UI is rendered and has no option for another one; its
// module object is mutable, so the factory is swapped before `render()`. The file is reached by
// path because Ink's package exports only its entry (the build bundles it, so the path is read
// at build time only). Ink 7+ needs Node 22, so 6.8 is the last version for Node 20.
import logUpdate from "../../node_modules/ink/build/log-update.js";
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

export function installFrameWriter(): void {
  logUpdate.create = (stream) =>
    createFrameWriter(stream, () => terminalColumns(stream as NodeJS.WriteStream));
}
