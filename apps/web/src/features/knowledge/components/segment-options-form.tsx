import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { SEGMENT_METHODS, type SegmentOptionsInput } from "@agentfair/contracts";
import { Button, Checkbox, Col, Form, Input, InputNumber, Row, Select, Space } from "antd";
import { useTranslation } from "react-i18next";

/** The form's values: delimiters are typed with visible escapes (\n, \t). */
export interface OptionsFormValues {
  method: SegmentOptionsInput["method"];
  chunkSize: number;
  overlap: number;
  delimiters: string[];
  cleaning: string[];
  replace: { pattern: string; replacement?: string }[];
}

export const DEFAULT_OPTIONS: OptionsFormValues = {
  method: "auto",
  chunkSize: 512,
  overlap: 0,
  delimiters: [],
  cleaning: ["collapseWhitespace"],
  replace: [],
};

const typedEscapes = (s: string) => s.replace(/\\n/g, "\n").replace(/\\t/g, "\t");

/** The options a preview and a commit send; empty delimiters mean the server's defaults. */
export function toSegmentOptions(v: OptionsFormValues): SegmentOptionsInput {
  return {
    method: v.method,
    chunkSize: v.chunkSize,
    overlap: v.overlap,
    delimiters: v.delimiters.length ? v.delimiters.map(typedEscapes) : undefined,
    cleaning: {
      collapseWhitespace: v.cleaning.includes("collapseWhitespace"),
      dropUrls: v.cleaning.includes("dropUrls"),
      dropEmails: v.cleaning.includes("dropEmails"),
      replace: v.replace.filter((r) => r.pattern).map((r) => ({ pattern: r.pattern, replacement: r.replacement ?? "", flags: "g" })),
    },
  };
}

/** Segmentation and cleaning options (doc 2 §9: the eleven methods). */
export function SegmentOptionsForm() {
  const { t } = useTranslation();
  const methodLabels = t("knowledge.wizard.methods", { returnObjects: true }) as Record<string, string>;
  return (
    <>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="method" label={t("knowledge.wizard.method")}>
            <Select
              virtual={false}
              options={SEGMENT_METHODS.map((m) => ({ value: m, label: methodLabels[m] }))}
              data-testid="segment-method"
            />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="chunkSize" label={t("knowledge.wizard.chunkSize")}>
            <InputNumber min={32} max={8192} step={64} style={{ width: "100%" }} data-testid="chunk-size" />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="overlap"
            label={t("knowledge.wizard.overlap")}
            dependencies={["chunkSize"]}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, v: number) =>
                  v <= Math.floor((getFieldValue("chunkSize") ?? 512) / 2) ? Promise.resolve() : Promise.reject(new Error("≤ chunk / 2")),
              }),
            ]}
          >
            <InputNumber min={0} max={2048} step={16} style={{ width: "100%" }} data-testid="overlap" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="delimiters" label={t("knowledge.wizard.delimiters")} tooltip={t("knowledge.wizard.delimitersHint")}>
        <Select mode="tags" open={false} placeholder={"\\n\\n  \\n  。  ！  ？  ；"} tokenSeparators={[]} />
      </Form.Item>
      <Form.Item name="cleaning" label={t("knowledge.wizard.cleaning")}>
        <Checkbox.Group
          options={[
            { value: "collapseWhitespace", label: t("knowledge.wizard.collapseWhitespace") },
            { value: "dropUrls", label: t("knowledge.wizard.dropUrls") },
            { value: "dropEmails", label: t("knowledge.wizard.dropEmails") },
          ]}
        />
      </Form.Item>
      <Form.Item label={t("knowledge.wizard.replace")} style={{ marginBottom: 8 }}>
        <Form.List name="replace">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Space key={f.key} align="baseline" style={{ display: "flex" }}>
                  <Form.Item name={[f.name, "pattern"]} rules={[{ required: true, message: t("knowledge.wizard.pattern") }]}>
                    <Input placeholder={t("knowledge.wizard.pattern")} style={{ width: 220 }} />
                  </Form.Item>
                  <Form.Item name={[f.name, "replacement"]}>
                    <Input placeholder={t("knowledge.wizard.replacement")} style={{ width: 180 }} />
                  </Form.Item>
                  <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(f.name)} />
                </Space>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ pattern: "", replacement: "" })}
                disabled={fields.length >= 20}
              >
                {t("knowledge.wizard.addRule")}
              </Button>
            </>
          )}
        </Form.List>
      </Form.Item>
    </>
  );
}
