import { CONTENT_TYPES, type ParameterRow, type PluginInput } from "@agentfair/contracts";
import { Form, Input, Select, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { RowsTable } from "./rows-table";

type RowsKey = "headers" | "parameters" | "body" | "pathVariables";
export type RequestParts = Pick<PluginInput, RowsKey | "contentType" | "rawBody">;

/**
 * An HTTP plugin's request tables (doc 2 §3), in tabs: parameters, headers, the body (its content
 * type, raw text and fields) and path variables. Each table's test id is `${testIdPrefix}-${key}`.
 */
export function RequestTables({
  value,
  onChange,
  disabled,
  testIdPrefix,
  headersFirst = false,
}: {
  value: RequestParts;
  onChange: (patch: Partial<RequestParts>) => void;
  disabled?: boolean;
  testIdPrefix: string;
  /** The import dialog opens on the headers, the editor on the parameters. */
  headersFirst?: boolean;
}) {
  const { t } = useTranslation();
  const rows = (key: RowsKey) => (
    <RowsTable
      testId={`${testIdPrefix}-${key}`}
      value={value[key]}
      disabled={disabled}
      onChange={(v: ParameterRow[]) => onChange({ [key]: v })}
    />
  );
  const parameters = { key: "parameters", label: t("tools.editor.parameters"), children: rows("parameters") };
  const headers = { key: "headers", label: t("tools.editor.headers"), children: rows("headers") };
  return (
    <Tabs
      items={[
        ...(headersFirst ? [headers, parameters] : [parameters, headers]),
        {
          key: "body",
          label: t("tools.editor.body"),
          children: (
            <>
              <Form.Item label={t("tools.editor.contentType")}>
                <Select
                  aria-label={t("tools.editor.contentType")}
                  style={{ width: 160 }}
                  value={value.contentType}
                  onChange={(contentType) => onChange({ contentType })}
                  options={CONTENT_TYPES.map((c) => ({ value: c, label: c }))}
                />
              </Form.Item>
              {value.contentType === "raw" && (
                <Form.Item label={t("tools.editor.rawBody")}>
                  <Input.TextArea
                    rows={4}
                    style={{ fontFamily: "monospace" }}
                    value={value.rawBody}
                    onChange={(e) => onChange({ rawBody: e.target.value })}
                  />
                </Form.Item>
              )}
              {rows("body")}
            </>
          ),
        },
        { key: "pathVariables", label: t("tools.editor.pathVariables"), children: rows("pathVariables") },
      ]}
    />
  );
}
