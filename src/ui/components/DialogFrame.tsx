// The frame every dialog draws in: its title, its body parts one under another (rows of text, a
// SelectList, a text field), one column in from each side, and its footer of keys. The parts get
// their rows from view/dialog-frame.ts's placeDialog, as in the first frame (dialogText).
import { Box } from "ink";
import type { ReactNode } from "react";
import { useApp } from "../context/useStore.js";
import { padToWidth } from "../render/wrap.js";
import { dialogFooter, dialogTitle, partLines, placeDialog, type DialogPart } from "../view/dialog-frame.js";
import { plainLine } from "../view/linear-cards.js";
import { DialogField } from "./DialogField.js";
import { Lines } from "./Lines.js";
import { SelectList } from "./SelectList.js";

export interface DialogFrameProps {
  title: string;
  body: DialogPart[];
  footer: string;
  width: number;
  height: number;
  plain?: boolean;
}

export function DialogFrame({ title, body, footer, width, height, plain = false }: DialogFrameProps) {
  const { palette: p } = useApp();
  const inner = Math.max(1, width - 2);
  const { parts, blank } = placeDialog(p, body, width, height);
  const text = (lines: string[]) => (plain ? lines.map(plainLine) : lines);
  const children: ReactNode[] = parts.map((part, i) => {
    const key = `${i}:${part.kind}`;
    if (part.kind === "list")
      return <SelectList key={key} {...part.list} height={part.rows} width={inner} plain={plain} />;
    if (part.kind === "field")
      return <DialogField key={key} {...part.field} maxRows={part.rows} width={inner} plain={plain} />;
    return <Lines key={key} lines={text(partLines(p, part, inner))} width={inner} />;
  });
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0}>
      {height >= 1 && <Lines lines={text([dialogTitle(p, title, width)])} width={width} />}
      <Box flexDirection="column" paddingLeft={1} width={width} flexShrink={0}>
        {children}
      </Box>
      {blank > 0 && <Lines lines={Array.from({ length: blank }, () => padToWidth("", width))} width={width} />}
      {height >= 2 && <Lines lines={text([dialogFooter(p, footer, width)])} width={width} />}
    </Box>
  );
}
