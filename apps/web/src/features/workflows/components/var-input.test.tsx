import { act, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import "../../../i18n";
import { variablesFor } from "../model/graph";
import { fromWire } from "../model/graph";
import { codeReturnFields } from "../model/nodes";
import { VarInput, VariablesContext } from "./var-input";

function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  const g = fromWire({
    nodes: [
      { id: "start", type: "start", data: { inputs: [{ name: "city", type: "string" }] } },
      { id: "code1", type: "code", data: { code: "function main(p) {\n  return { temp: 1, 'feels': 2 };\n}" } },
      { id: "code2", type: "code", data: { code: "function main(p) {\n  return { n: 1 };\n}" } },
      { id: "t1", type: "template", data: { template: "" } },
    ],
    edges: [
      { source: "start", target: "code1" },
      { source: "code1", target: "code2" },
      { source: "code2", target: "t1" },
    ],
  });
  return (
    <VariablesContext.Provider value={variablesFor("t1", g.nodes, g.edges)}>
      <VarInput value={value} onChange={setValue} testId="tpl" />
      <output data-testid="value">{value}</output>
    </VariablesContext.Provider>
  );
}

describe("variable picker", () => {
  it("lists the upstream outputs and inserts {{nodeId.field}} at the cursor", async () => {
    render(<Harness initial="Weather in !" />);
    const input = screen.getByTestId("tpl") as HTMLInputElement;
    input.setSelectionRange(11, 11);
    fireEvent.select(input);
    fireEvent.click(screen.getByTestId("tpl-var"));
    const items = await screen.findAllByRole("menuitem");
    // Named as on the canvas; two nodes of one name also by their ids.
    expect(items.map((i) => i.textContent)).toEqual(["开始 · city", "代码 (code1) · temp", "代码 (code1) · feels", "代码 (code2) · n"]);
    await act(async () => fireEvent.click(items[0]));
    expect(screen.getByTestId("value").textContent).toBe("Weather in {{start.city}}!");
  });

  it("reads the fields a code node returns", () => {
    expect(codeReturnFields("function main(p) {\n  return { a: p.x, b: [1, 2], c: { d: 1 } };\n}")).toEqual(["a", "b", "c"]);
    expect(codeReturnFields("def main(params):\n    return {'total': 1, \"avg\": 2}\n")).toEqual(["total", "avg"]);
    expect(codeReturnFields("function main(p) { const x = 1; return { x, y }; }")).toEqual(["x", "y"]);
    expect(codeReturnFields("function main() { return 1 }")).toEqual([]);
  });
});
