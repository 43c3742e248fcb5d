// What the frame last drawn measured, kept by the App as it draws: the side panel's scroll keys
// (keys.ts) need how far the answer can move. Input handlers read it instead of laying the
// frame out a second time.
import type { SideScroll } from "./side-view.js";

export const lastFrame = {
  side: null as SideScroll | null,
};
