// Every focus area has its keys listed (src/ui/focus/), and every results tab its definition
// (src/ui/tabs/): a new `Focus` value or `ResultsTab` without one fails here, not at the first key
// pressed in it or the first frame that shows it.
import { describe, expect, it } from "vitest";
import { focusAreas, resultsTabs } from "../../src/ui/state/ui-state.js";
import { focusSpec } from "../../src/ui/focus/index.js";
import { resultsTabDefs } from "../../src/ui/tabs/index.js";

describe("the focus and tab lists", () => {
  it.each(focusAreas)("%s has its keys", (focus) => {
    expect(typeof focusSpec(focus)?.keys).toBe("function");
  });

  it("only the composer and browse mode type into the composer", () => {
    const typing = focusAreas.filter((f) => focusSpec(f).typing !== undefined);
    expect(typing).toEqual(["composer", "browse"]);
  });

  it.each(resultsTabs)("the %s tab has its model, its rows and a name", (tab) => {
    const def = resultsTabDefs[tab];
    expect(typeof def.lines).toBe("function");
    expect(typeof def.select).toBe("function");
    expect(def.label.length).toBeGreaterThan(def.short.length - 1);
  });

  it("the plain lists have no keys of their own; the others do", () => {
    const withKeys = resultsTabs.filter((t) => resultsTabDefs[t].keys !== undefined);
    expect(withKeys).toEqual(["changes", "diff", "turns", "jobs", "agents", "skills"]);
  });

  it("the bar lists the tabs in the order of the list", () => {
    expect(Object.keys(resultsTabDefs)).toEqual(resultsTabs);
  });
});
