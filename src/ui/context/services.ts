// What every component may reach: the store, the controller, the palette and shared renderers.
import { createContext } from "react";
import type { AreaHost, DialogHost } from "../controller/host.js";
import type { Store } from "../state/store.js";
import type { Palette } from "../theme/palette.js";
import type { TranscriptRenderer } from "../view/transcript-view.js";
import type { MarkdownStyles } from "../render/markdown.js";

export interface AppServices {
  store: Store;
  /**
   * The controller as views and components may use it: what dialog and area keys get (the
   * `Controller` itself is the runtime's, app/runtime.ts).
   */
  ctl: DialogHost & AreaHost;
  palette: Palette;
  markdown: MarkdownStyles;
  renderer: TranscriptRenderer;
  ascii: boolean;
  /** Spinners animate; off with NO_COLOR, a reduced-motion setting or a screen reader (motion.ts). */
  motion: boolean;
  workspace: string;
  sandbox: string;
  /** Content of files before this session's tools changed them, for the Changes tab (read by app/settle.ts). */
  before: Map<string, string | null>;
  /** Reads a workspace file for a diff view; only app/settle.ts calls it, never a render. */
  readFile(path: string): string | null;
}

export const AppContext = createContext<AppServices>(null as unknown as AppServices);
