import { DeleteOutlined, EditOutlined, FileTextOutlined, FolderOutlined, PlusOutlined, ProjectOutlined } from "@ant-design/icons";
import type { RuleTreeProject } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Space,
  Switch,
  Tag,
  Tree,
  Typography,
} from "antd";
import type { DataNode } from "antd/es/tree";
import dayjs from "dayjs";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageTitle } from "../../../components/page-title";
import { validated } from "../../../lib/form";
import { deleteDir, deleteProject, deleteRule } from "../api/delete";
import { ruleKey, useRule } from "../api/rule";
import { setRuleState } from "../api/rule-state";
import { saveDir, saveProject } from "../api/save-project";
import { treeKey, useRuleTree } from "../api/tree";
import { RuleDialog } from "../components/rule-dialog";

type Selected = { kind: "project" | "dir" | "rule"; id: string; projectId: string; dirId: string | null };

/** The rule engine library: the project / directory / rule tree, search, enable or disable, public or private. */
export function RulesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const tree = useRuleTree(search);
  const [selected, setSelected] = useState<Selected | null>(null);
  const [dialog, setDialog] = useState<{ ruleId: string | null; projectId: string; dirId: string | null } | null>(null);
  const [naming, setNaming] = useState<{ kind: "project" | "dir"; projectId?: string } | null>(null);
  const rule = useRule(selected?.kind === "rule" ? selected.id : null);
  const editing = useRule(dialog?.ruleId ?? null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: treeKey });
  const projects = tree.data ?? [];
  const projectOf = (id?: string) => projects.find((p) => p.id === id);

  const nodes: DataNode[] = useMemo(
    () =>
      projects.map((p: RuleTreeProject) => ({
        key: `project|${p.id}`,
        title: p.name,
        icon: <ProjectOutlined />,
        children: p.ruleDirs.map((d) => ({
          key: `dir|${p.id}|${d.id}`,
          title: d.name || t("rules.rootDir"),
          icon: <FolderOutlined />,
          children: d.rules.map((r) => ({
            key: `rule|${p.id}|${d.id}|${r.id}`,
            icon: <FileTextOutlined />,
            title: (
              <Space size={4}>
                <span style={{ opacity: r.useData ? 1 : 0.5 }}>{r.name}</span>
                <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                  {r.ruleKey}
                </Typography.Text>
                {r.isPublic && <Tag color="blue">{t("rules.public")}</Tag>}
              </Space>
            ),
          })),
        })),
      })),
    [projects, t],
  );

  // A new directory or rule remounts the tree, so that it opens expanded like the rest.
  const treeShape = projects.map((p) => `${p.id}:${p.ruleDirs.map((d) => `${d.id}.${d.rules.length}`).join(",")}`).join("|");

  const onSelect = (keys: React.Key[]) => {
    const key = String(keys[0] ?? "");
    const [kind, projectId, dirId, ruleId] = key.split("|");
    if (kind === "project") setSelected({ kind, id: projectId, projectId, dirId: null });
    else if (kind === "dir") setSelected({ kind, id: dirId, projectId, dirId: dirId.endsWith("root") ? null : dirId });
    else if (kind === "rule") setSelected({ kind, id: ruleId, projectId, dirId: dirId.endsWith("root") ? null : dirId });
  };

  const current = rule.data;
  const changeState = async (state: { useData?: 0 | 1; isPublic?: boolean }) => {
    if (!current) return;
    await setRuleState(current.id, state);
    void queryClient.invalidateQueries({ queryKey: ruleKey(current.id) });
    void refresh();
  };
  const project = projectOf(selected?.projectId);

  return (
    <div style={{ maxWidth: 1200, margin: "0 auto", padding: 16 }}>
      <Card
        title={<PageTitle title={t("rules.title")} subtitle={t("rules.subtitle")} />}
        extra={
          <Space>
            <Button icon={<PlusOutlined />} onClick={() => setNaming({ kind: "project" })} data-testid="rule-new-project">
              {t("rules.newProject")}
            </Button>
            <Button
              icon={<PlusOutlined />}
              disabled={!selected || !project?.mine}
              onClick={() => selected && setNaming({ kind: "dir", projectId: selected.projectId })}
              data-testid="rule-new-dir"
            >
              {t("rules.newDir")}
            </Button>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={!selected || !project?.mine}
              onClick={() => selected && setDialog({ ruleId: null, projectId: selected.projectId, dirId: selected.dirId })}
              data-testid="rule-new"
            >
              {t("rules.newRule")}
            </Button>
          </Space>
        }
      >
        <Row gutter={16}>
          <Col span={9}>
            <Input.Search
              allowClear
              placeholder={t("rules.search")}
              onSearch={setSearch}
              style={{ marginBottom: 8 }}
              data-testid="rule-search"
            />
            {projects.length ? (
              <Tree
                showIcon
                defaultExpandAll
                blockNode
                treeData={nodes}
                onSelect={onSelect}
                key={`${search}-${treeShape}`}
                data-testid="rule-tree"
              />
            ) : (
              <Empty description={t("rules.empty")} />
            )}
          </Col>
          <Col span={15}>
            {selected?.kind === "rule" && current ? (
              <Card
                size="small"
                title={current.name}
                data-testid="rule-detail"
                extra={
                  current.mine ? (
                    <Space>
                      <Button
                        icon={<EditOutlined />}
                        onClick={() => setDialog({ ruleId: current.id, projectId: current.projectId, dirId: current.dirId })}
                        data-testid="rule-edit"
                      >
                        {t("rules.edit")}
                      </Button>
                      <Popconfirm
                        title={t("rules.deleteConfirm")}
                        onConfirm={async () => {
                          await deleteRule(current.id);
                          setSelected(null);
                          void refresh();
                        }}
                      >
                        <Button danger icon={<DeleteOutlined />} />
                      </Popconfirm>
                    </Space>
                  ) : (
                    <Tag>{t("rules.readOnly")}</Tag>
                  )
                }
              >
                <Descriptions column={1} size="small">
                  <Descriptions.Item label={t("rules.ruleKey")}>
                    <Typography.Text code>{current.ruleKey}</Typography.Text>
                  </Descriptions.Item>
                  <Descriptions.Item label={t("rules.category")}>{current.category || "—"}</Descriptions.Item>
                  <Descriptions.Item label={t("rules.useData")}>
                    <Switch
                      checked={current.useData === 1}
                      disabled={!current.mine}
                      checkedChildren={t("rules.enabled")}
                      unCheckedChildren={t("rules.disabled")}
                      onChange={(c) => changeState({ useData: c ? 1 : 0 })}
                      data-testid="rule-enabled"
                    />
                  </Descriptions.Item>
                  <Descriptions.Item label={t("rules.visibility")}>
                    <Switch
                      checked={current.isPublic}
                      disabled={!current.mine}
                      checkedChildren={t("rules.public")}
                      unCheckedChildren={t("rules.private")}
                      onChange={(c) => changeState({ isPublic: c })}
                      data-testid="rule-public"
                    />
                  </Descriptions.Item>
                  <Descriptions.Item label={t("rules.description")}>{current.description}</Descriptions.Item>
                  {current.remark ? <Descriptions.Item label={t("rules.remark")}>{current.remark}</Descriptions.Item> : null}
                  <Descriptions.Item label={t("rules.expression")}>
                    <Typography.Text code data-testid="rule-detail-expression">
                      {current.showExpression}
                    </Typography.Text>
                  </Descriptions.Item>
                  <Descriptions.Item label={t("rules.expressionCn")}>{current.expressionCn}</Descriptions.Item>
                  <Descriptions.Item label={t("rules.params")}>
                    <Space wrap>
                      {current.params.map((p) => (
                        <Tag key={p.name} color={p.type === "sql" ? "purple" : "default"}>
                          {p.name}
                          {p.description ? ` · ${p.description}` : ""}
                        </Tag>
                      ))}
                    </Space>
                  </Descriptions.Item>
                  <Descriptions.Item label={t("rules.creator")}>{current.creator}</Descriptions.Item>
                  <Descriptions.Item label={t("rules.updater")}>{current.updater}</Descriptions.Item>
                  <Descriptions.Item label={t("rules.updateTime")}>
                    {dayjs(current.updateTime).format("YYYY-MM-DD HH:mm:ss")}
                  </Descriptions.Item>
                </Descriptions>
              </Card>
            ) : selected && selected.kind !== "rule" && project?.mine ? (
              <Card size="small" title={selected.kind === "project" ? project.name : t("rules.dirName")}>
                <Space>
                  <Popconfirm
                    title={t("rules.deleteConfirm")}
                    onConfirm={async () => {
                      if (selected.kind === "project") await deleteProject(selected.id);
                      else if (selected.dirId) await deleteDir(selected.dirId);
                      setSelected(null);
                      void refresh();
                      message.success(t("datatables.deleted"));
                    }}
                  >
                    <Button danger icon={<DeleteOutlined />} disabled={selected.kind === "dir" && !selected.dirId}>
                      {t("rules.delete")}
                    </Button>
                  </Popconfirm>
                </Space>
              </Card>
            ) : (
              <Empty description={t("rules.pickRule")} />
            )}
          </Col>
        </Row>
      </Card>
      {naming && (
        <NameModal
          kind={naming.kind}
          onClose={() => setNaming(null)}
          onSave={async (name, fieldConfig) => {
            if (naming.kind === "project") await saveProject(null, { name, fieldConfig });
            else if (naming.projectId) await saveDir(null, { projectId: naming.projectId, name });
            setNaming(null);
            void refresh();
          }}
        />
      )}
      {dialog && (dialog.ruleId === null || editing.data) && (
        <RuleDialog
          rule={dialog.ruleId ? (editing.data ?? null) : null}
          projectId={dialog.projectId}
          dirId={dialog.dirId}
          fieldConfig={projectOf(dialog.projectId)?.fieldConfig ?? []}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            void refresh();
            void queryClient.invalidateQueries({ queryKey: ruleKey(saved.id) });
            setSelected({ kind: "rule", id: saved.id, projectId: saved.projectId, dirId: saved.dirId });
          }}
        />
      )}
    </div>
  );
}

function NameModal({
  kind,
  onClose,
  onSave,
}: {
  kind: "project" | "dir";
  onClose: () => void;
  onSave: (name: string, fieldConfig: { key: string; label: string }[]) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; inputs: string[] }>();
  const label = kind === "project" ? t("rules.projectName") : t("rules.dirName");
  return (
    <Modal
      open
      title={kind === "project" ? t("rules.newProject") : t("rules.newDir")}
      onCancel={onClose}
      okButtonProps={{ "data-testid": "name-save" } as ButtonProps}
      onOk={async () => {
        const v = await validated(form);
        if (!v) return;
        await onSave(
          v.name,
          (v.inputs ?? []).filter((x) => x?.trim()).map((x, i) => ({ key: `input${i + 1}`, label: x.trim() })),
        );
      }}
    >
      <Form form={form} layout="vertical" initialValues={{ inputs: [] }}>
        <Form.Item name="name" label={label} rules={[{ required: true, whitespace: true, message: t("rules.required", { field: label }) }]}>
          <Input maxLength={64} data-testid="name-input" />
        </Form.Item>
        {kind === "project" && (
          <Form.List name="inputs">
            {(fields, { add, remove }) => (
              <Form.Item label={t("rules.projectFields")}>
                {fields.map((f, i) => (
                  <Space key={f.key} style={{ display: "flex", marginBottom: 4 }}>
                    <Typography.Text type="secondary">input{i + 1}</Typography.Text>
                    <Form.Item name={f.name} noStyle>
                      <Input maxLength={64} />
                    </Form.Item>
                    <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(f.name)} />
                  </Space>
                ))}
                <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add("")} disabled={fields.length >= 10}>
                  {t("rules.addInput")}
                </Button>
              </Form.Item>
            )}
          </Form.List>
        )}
      </Form>
    </Modal>
  );
}
