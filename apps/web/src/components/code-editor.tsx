import { Input } from "antd";

/** A monospace code field where Tab indents instead of leaving it. */
export function CodeEditor({
  value,
  onChange,
  testId,
  minRows = 8,
  disabled,
}: {
  value: string;
  onChange: (code: string) => void;
  testId?: string;
  minRows?: number;
  disabled?: boolean;
}) {
  return (
    <Input.TextArea
      data-testid={testId}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      autoSize={{ minRows, maxRows: 30 }}
      spellCheck={false}
      style={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", fontSize: 13, tabSize: 2 }}
      onKeyDown={(e) => {
        if (e.key !== "Tab") return;
        e.preventDefault();
        const el = e.currentTarget;
        const { selectionStart: s, selectionEnd: end } = el;
        onChange(`${value.slice(0, s)}  ${value.slice(end)}`);
        requestAnimationFrame(() => el.setSelectionRange(s + 2, s + 2));
      }}
    />
  );
}
