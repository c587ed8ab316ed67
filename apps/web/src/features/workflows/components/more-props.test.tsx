import { act, fireEvent, render, screen } from "@testing-library/react";
import { Form } from "antd";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import "../../../i18n";
import type { NodeData } from "../model/types";
import { AssignProps, CodeOutputs, IterationProps } from "./more-props";

function Harness({ initial, Panel }: { initial: NodeData; Panel: typeof CodeOutputs }) {
  const [data, setData] = useState(initial);
  return (
    <Form>
      <Panel data={data} patch={(p) => setData((d) => ({ ...d, ...p }))} />
      <output data-testid="data">{JSON.stringify(data)}</output>
    </Form>
  );
}
const data = () => JSON.parse(screen.getByTestId("data").textContent ?? "{}");

describe("node panels", () => {
  it("declares a code node's outputs, adding the fields the code returns", async () => {
    render(
      <Harness
        Panel={CodeOutputs}
        initial={{ code: "function main(p) { return { a: 1, b: 2 }; }", outputs: [{ name: "a", type: "number" }] }}
      />,
    );
    await act(async () => fireEvent.click(screen.getByTestId("code-output-detect")));
    expect(data().outputs).toEqual([
      { name: "a", type: "number" },
      { name: "b", type: "string" },
    ]);
    fireEvent.change(screen.getByTestId("code-output-name-1"), { target: { value: "total" } });
    expect(data().outputs[1].name).toBe("total");
  });

  it("caps an iteration's parallelism at the contract's limit", () => {
    render(<Harness Panel={IterationProps} initial={{ items: "", parallelism: 2, output: "" }} />);
    const input = screen.getByTestId("iteration-parallelism").querySelector("input") ?? screen.getByTestId("iteration-parallelism");
    fireEvent.change(input, { target: { value: "50" } });
    fireEvent.blur(input);
    expect(data().parallelism).toBeLessThanOrEqual(10);
  });

  it("marks a duplicate assignment name", () => {
    render(
      <Harness
        Panel={AssignProps}
        initial={{
          assignments: [
            { name: "x", type: "string", value: "" },
            { name: "x", type: "number", value: "" },
          ],
        }}
      />,
    );
    expect(screen.getByText("变量名重复：x")).toBeTruthy();
  });
});
