// A frame that answers a key is drawn at once. Ink draws at most `maxFps` frames a second and holds
// a commit that comes sooner for the rest of that frame's time (up to 34 ms at 30 fps); while the
// model streams, a typed key would often wait behind that, and behind the store's own frame
// pacing before it. The store raises this flag when it notifies for a UI change (a key), and Ink's
// render step draws the commit that follows at once (patches/ink@6.8.0/3-frame-now.diff, which
// imports this module as `#nanohermes-frame-now`). Its own module, imported by the patched Ink and
// by the store alike.

/** Contract: `pending` is true from a UI change's notification until Ink's next commit takes it. */
export const frameNow = { pending: false };

/** Takes the flag: true once per raised flag. */
export function takeFrameNow(): boolean {
  const was = frameNow.pending;
  frameNow.pending = false;
  return was;
}
