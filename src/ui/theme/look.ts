// How things are drawn, as the pure views need it: the colours and whether glyphs fall back to
// ASCII. The app's services (../context/services.ts) carry both; a view asks only for these.
import type { Palette } from "./palette.js";

export interface Look {
  readonly palette: Palette;
  readonly ascii: boolean;
}
