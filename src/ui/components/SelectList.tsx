// A selectable list: its rows with "›" and the selection's style on the selected item, scrolled
// to keep that item in view (view/select-list.ts lays it out; the first frame draws the same).
// It draws; it reads no keys: a dialog moves the selection with input/list-nav.ts.
import { useMemo } from "react";
import { useApp } from "../context/useStore.js";
import { plainLine } from "../view/linear-cards.js";
import { selectListLines, type SelectListModel } from "../view/select-list.js";
import { Lines } from "./Lines.js";

export interface SelectListProps extends SelectListModel {
  width: number;
  /** The screen-reader layout's ASCII marks. */
  plain?: boolean;
}

export function SelectList({ items, selected, height, focused, empty, width, plain = false }: SelectListProps) {
  const { palette } = useApp();
  const lines = useMemo(() => {
    const rows = selectListLines(palette, { items, selected, height, focused, empty }, width);
    return plain ? rows.map(plainLine) : rows;
  }, [palette, items, selected, height, focused, empty, width, plain]);
  return <Lines lines={lines} width={width} />;
}
