import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../../../i18n";
import { FormulaEditor, formulaProblem } from "./formula-editor";

const functions = [
  { name: "ROUND", description: "四舍五入", example: "ROUND(3.14, 1)" },
  { name: "ROUNDUP", description: "向上舍入", example: "ROUNDUP(3.14, 1)" },
  { name: "IF", description: "条件", example: "IF(a, 1, 2)" },
];
const params = [{ name: "amount", description: "金额" }];

function Harness({ start = "" }: { start?: string }) {
  const [value, setValue] = useState(start);
  return <FormulaEditor value={value} onChange={setValue} functions={functions} params={params} testId="editor" />;
}

beforeEach(async () => {
  await i18n.changeLanguage("zh");
});
describe("the formula editor", () => {
  it("offers functions and parameters for the word at the caret and inserts the pick", () => {
    render(<Harness />);
    const area = screen.getByTestId("editor") as HTMLTextAreaElement;
    fireEvent.change(area, { target: { value: "RO", selectionStart: 2 } });
    const list = screen.getByTestId("formula-suggestions");
    expect(list.textContent).toContain("ROUND");
    expect(list.textContent).toContain("ROUNDUP");
    fireEvent.keyDown(area, { key: "Enter" });
    expect(area.value).toBe("ROUND(");
    expect(screen.getByTestId("formula-error").textContent).toContain("表达式不完整");
  });
  it("highlights tokens and marks unknown names inline", () => {
    render(<Harness start="IF(amount > 1, total, 0)" />);
    expect(screen.getByTestId("formula-error").textContent).toBe("未定义的参数：total（第16个字符）");
    expect(document.querySelector("pre span")?.textContent).toBe("IF");
  });
  it("checks function names against the server's list", () => {
    expect(formulaProblem("SUM(amount)", functions, ["amount"], "en")?.text).toBe("unknown function: SUM (at character 1)");
    expect(formulaProblem("ROUND(amount, 2)", functions, ["amount"], "en")).toBeNull();
  });
});
