// Mounts the Ink app on services built elsewhere; loaded after the first frame is on screen.
// Also owns live theme switching (/theme): a new palette for every pane.
import { render } from "ink";
import { useMemo } from "react";
import { App } from "../components/App.js";
import { inertStdin } from "../terminal/inert-stdin.js";
import { AppContext, type AppServices } from "../context/services.js";
import { useStore } from "../context/useStore.js";
import type { Palette } from "../theme/palette.js";
import { markdownStyles } from "../view/panes.js";

export interface MountOptions {
  stdout: NodeJS.WriteStream;
  maxFps: number;
  themeFor(name: string): Palette;
  onRender?: (ms: number) => void;
}

export interface InkHandle {
  unmount(): void;
  clear(): void;
}

export function mountInk(services: AppServices, opts: MountOptions): InkHandle {
  // The services hold the starting theme's palette. A switch (/theme) replaces it in place, so what
  // else holds these services (the settle step, whose transcript frames the render reuses) draws
  // in the same palette, and the context gets a new object so that memoised panes redraw.
  let themeName = services.store.getState().ui.theme;
  function Root() {
    const name = useStore((s) => s.ui.theme);
    const value = useMemo(() => {
      if (name === themeName) return services;
      themeName = name;
      services.palette = opts.themeFor(name);
      services.markdown = markdownStyles(services.palette, services.ascii);
      services.renderer.setStyles(services.palette, services.markdown);
      return { ...services };
    }, [name]);
    return (
      <AppContext.Provider value={value}>
        <App />
      </AppContext.Provider>
    );
  }
  const instance = render(
    <AppContext.Provider value={services}>
      <Root />
    </AppContext.Provider>,
    {
      stdout: opts.stdout,
      // Ink reads no keys itself: they reach fields through the controller (terminal/inert-stdin.ts).
      stdin: inertStdin(),
      exitOnCtrlC: false,
      patchConsole: false,
      incrementalRendering: true,
      maxFps: opts.maxFps,
      ...(opts.onRender ? { onRender: ({ renderTime }: { renderTime: number }) => opts.onRender!(renderTime) } : {}),
    },
  );
  return { unmount: () => instance.unmount(), clear: () => instance.clear() };
}
