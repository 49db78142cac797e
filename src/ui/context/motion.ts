// Whether anything on screen may animate (the spinners of running work). Animation is off with
// NO_COLOR (https://no-color.org asks for plain output; a moving glyph is not), with
// "ui": {"reducedMotion": true} or NANOHERMES_REDUCED_MOTION=1, and for a screen reader.
export function motionAllowed(
  env: NodeJS.ProcessEnv,
  settings: { ui?: { reducedMotion?: boolean; screenReader?: boolean } },
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.NANOHERMES_REDUCED_MOTION === "1") return false;
  return !settings.ui?.reducedMotion && !settings.ui?.screenReader;
}
