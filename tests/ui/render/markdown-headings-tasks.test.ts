// Replies in the theme's styles (issue 28, polish): H1 is set apart from H2 (underlined in the
// built-in themes, a banner in high-contrast) and a task list draws boxes instead of "• [ ]":
// ☐ and ☑ in a UTF-8 terminal, [ ] and [x] under LANG=C. The same from the cheap renderer (before
// the full one loads, and for a streaming tail) and the full one.
import { describe, expect, it } from "vitest";
import { loadMarkdown, renderBlock, renderOpenTail } from "../../../src/ui/render/markdown.js";
import { builtinTheme } from "../../../src/ui/theme/load.js";
import { makePalette } from "../../../src/ui/theme/palette.js";
import { builtinThemeNames } from "../../../src/ui/theme/tokens.js";
import { markdownStyles } from "../../../src/ui/view/panes.js";
import { stripAnsi } from "./fixtures.js";

const DOC = "# Release\n\n## Steps\n\n- [x] build\n- [ ] tag it\n  with the version\n- plain point";

describe("headings and task lists in replies", () => {
  it.each(builtinThemeNames)("%s: H1 and H2 look different, in colour", (name) => {
    const styles = markdownStyles(makePalette(builtinTheme(name), 8));
    const cheap = renderBlock(DOC, { width: 60, styles, highlight: false });
    const [h1, , h2] = cheap;
    expect(stripAnsi(h1!)).toBe("Release");
    expect(stripAnsi(h2!)).toBe("Steps");
    // The same words in the same style would draw the same escape codes around them.
    expect(h1!.replace("Release", "X")).not.toBe(h2!.replace("Steps", "X"));
  });

  it("draws ☐ and ☑ in place of the bullet, the item's next lines under its text", async () => {
    const styles = markdownStyles(makePalette(builtinTheme("dark"), 0));
    const cheap = renderBlock(DOC, { width: 60, styles, highlight: false }).slice(4);
    await loadMarkdown();
    const full = renderBlock(DOC, { width: 60, styles, highlight: false }).slice(4);
    expect(full).toEqual(["☑ build", "☐ tag it", "  with the version", "• plain point"]);
    // The cheap renderer draws line by line: the continuation is prose there.
    expect(cheap.slice(0, 2)).toEqual(["☑ build", "☐ tag it"]);
    expect(cheap.at(-1)).toBe("• plain point");
    // A streaming tail, before its block is finished.
    expect(renderOpenTail("- [ ] still typing", { width: 60, styles, highlight: false })).toEqual(["☐ still typing"]);
  });

  it("under LANG=C the boxes are [ ] and [x], never a ? for a glyph the terminal lacks", async () => {
    await loadMarkdown();
    const styles = markdownStyles(makePalette(builtinTheme("dark"), 0), true);
    expect(renderBlock(DOC, { width: 60, styles, highlight: false }).slice(4)).toEqual([
      "[x] build",
      "[ ] tag it",
      "    with the version",
      "• plain point",
    ]);
  });

  it("without colour (NO_COLOR) the # marks keep H1 and H2 apart", () => {
    const styles = markdownStyles(makePalette(builtinTheme("dark"), 0));
    const lines = renderBlock("# Release\n\n## Steps", { width: 60, styles, highlight: false });
    expect(lines).toEqual(["# Release", "", "## Steps"]);
  });
});
