// A dialog's text field: the text after "› " with a cursor mark, or its placeholder. It draws; the
// controller edits the value (controller/field.ts) with the keys the open dialog gets.
import { useApp } from "../context/useStore.js";
import { fieldLines, type FieldModel } from "../view/dialog-frame.js";
import { plainLine } from "../view/linear-cards.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import { Lines } from "./Lines.js";

export interface DialogFieldProps extends FieldModel {
  width: number;
  plain?: boolean;
}

export function DialogField({ width, plain = false, ...field }: DialogFieldProps) {
  const { palette } = useApp();
  const rows = fieldLines(palette, field, width).map((l) => padToWidth(truncateToWidth(l, width), width));
  return <Lines lines={plain ? rows.map(plainLine) : rows} width={width} />;
}
