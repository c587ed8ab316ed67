import type { AgentCard } from "@agentfair/contracts";
import { fireEvent, render, screen } from "@testing-library/react";
import { App as AntApp, Form, Input } from "antd";
import { beforeEach, describe, expect, it } from "vitest";
import { IntroModal } from "../features/agents/components/intro-modal";
import i18n from "../i18n";
import { settle, unhandledRejections } from "../test/unhandled";
import { validated } from "./form";

const unhandled = unhandledRejections();
beforeEach(async () => {
  await i18n.changeLanguage("zh");
});

const agent = { id: "a1", agentName: "助手", agentDescription: "", agentIcon: "1", agentIconBackground: "#e8f3ff", price: 0 } as AgentCard;

describe("failed form validation", { timeout: 30_000 }, () => {
  it("the rename dialog shows the message and leaves no unhandled rejection", async () => {
    render(
      <AntApp>
        <IntroModal agent={agent} mode="rename" onClose={() => {}} onSaved={() => {}} />
      </AntApp>,
    );
    fireEvent.change(await screen.findByTestId("intro-name"), { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: /确\s*定/ }));
    expect(await screen.findByText("名称不能为空")).toBeTruthy();
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("validated() gives null for invalid fields and the values otherwise", async () => {
    let form: ReturnType<typeof Form.useForm<{ name: string }>>[0] | undefined;
    function Probe() {
      const [f] = Form.useForm<{ name: string }>();
      form = f;
      return (
        <Form form={f}>
          <Form.Item name="name" rules={[{ required: true, message: "必填" }]}>
            <Input />
          </Form.Item>
        </Form>
      );
    }
    render(<Probe />);
    expect(await validated(form!)).toBeNull();
    form!.setFieldsValue({ name: "x" });
    expect(await validated(form!)).toEqual({ name: "x" });
    await settle();
    expect(unhandled).toEqual([]);
  });
});
