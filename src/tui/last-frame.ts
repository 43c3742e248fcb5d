// What the frame last drawn measured, kept by the App as it draws: the resize erase (run.tsx)
// needs the rows' widths, the side panel's scroll keys (keys.ts) how far the answer can move.
// Input handlers read it instead of laying the frame out a second time.
import type { SideScroll } from "./side-view.js";

export const lastFrame = {
  widths: [] as number[],
  side: null as SideScroll | null,
};
