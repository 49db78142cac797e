// Every focus area and every results tab has its keys listed (src/ui/focus/): a new `Focus` value or
// `ResultsTab` without its spec fails here, not at the first key pressed in it.
import { describe, expect, it } from "vitest";
import { focusAreas, resultsTabs } from "../../src/ui/state/ui-state.js";
import { focusSpec } from "../../src/ui/focus/index.js";
import { resultsTabSpec } from "../../src/ui/focus/results-tabs/index.js";

describe("the focus registry", () => {
  it.each(focusAreas)("%s has its keys", (focus) => {
    expect(typeof focusSpec(focus)?.keys).toBe("function");
  });

  it("only the composer and browse mode type into the composer", () => {
    const typing = focusAreas.filter((f) => focusSpec(f).typing !== undefined);
    expect(typing).toEqual(["composer", "browse"]);
  });

  it.each(resultsTabs)("the %s tab has its keys", (tab) => {
    expect(typeof resultsTabSpec(tab)?.keys).toBe("function");
  });
});
