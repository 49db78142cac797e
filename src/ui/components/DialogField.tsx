// A dialog's text field: "› " and the field. Focused, it is a TextField (ink-text-input) editing
// the value with the keys the dialog routes to it; otherwise the text as it stands, with its
// placeholder when empty (view/dialog-frame.ts draws it the same way in the first frame).
import { Box, Text } from "ink";
import { useApp } from "../context/useStore.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";
import { fieldLines, type FieldModel } from "../view/dialog-frame.js";
import { plainLine } from "../view/linear-cards.js";
import { Lines } from "./Lines.js";
import { TextField } from "./TextField.js";

export interface DialogFieldProps extends FieldModel {
  width: number;
  plain?: boolean;
}

export function DialogField({ width, plain = false, ...field }: DialogFieldProps) {
  const { palette } = useApp();
  if (field.focused && field.onChange) {
    const submit = field.onSubmit;
    return (
      <Box width={width} height={Math.max(1, field.maxRows ?? 1)} overflow="hidden" flexShrink={0}>
        <Text>{plain ? ">" : palette.accent("›")} </Text>
        <TextField
          value={field.value}
          onChange={field.onChange}
          {...(submit ? { onSubmit: () => submit() } : {})}
          width={Math.max(1, width - 2)}
          {...(field.placeholder ? { placeholder: field.placeholder } : {})}
        />
      </Box>
    );
  }
  const rows = fieldLines(palette, field, width).map((l) => padToWidth(truncateToWidth(l, width), width));
  return <Lines lines={plain ? rows.map(plainLine) : rows} width={width} />;
}
