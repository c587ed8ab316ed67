import { ImportOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import type { Segment } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Space, Table, Tag, Typography, Upload } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { addQaPair, importQaCsv, QA_PAGE_SIZE, updateQaPair, useQaPairs } from "../api/qa";
import { deleteSegment } from "../api/segment-writes";
import { validated } from "../../../lib/form";

interface PairForm {
  question: string;
  answer: string;
}

/** Q&A pairs of a base (doc 2 §3, §5): list, add, edit, delete (question and answer not empty), CSV import. */
export function QaPanel({ baseId }: { baseId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [form] = Form.useForm<PairForm>();
  const [editing, setEditing] = useState<{ pair: Segment | null } | null>(null);
  const [importing, setImporting] = useState(false);
  const [csv, setCsv] = useState<File | null>(null);
  const [csvError, setCsvError] = useState(false);
  const [busy, setBusy] = useState(false);
  const query = useQaPairs(baseId, page);
  const list = query.data?.list ?? [];
  const total = query.data?.total ?? 0;

  useEffect(() => {
    if (editing) form.setFieldsValue({ question: editing.pair?.question ?? "", answer: editing.pair?.answer ?? "" });
  }, [editing, form]);
  // A delete that empties the last page steps back a page.
  useEffect(() => {
    if (!query.isPlaceholderData && page > 1 && list.length === 0 && total > 0) setPage(Math.ceil(total / QA_PAGE_SIZE));
  }, [query.isPlaceholderData, page, list.length, total]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["knowledge", "segments", baseId] });
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // The http client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    const v = await validated(form);
    if (!v) return;
    await run(async () => {
      const body = { question: v.question.trim(), answer: v.answer.trim() };
      if (editing?.pair) await updateQaPair(baseId, editing.pair.id, body);
      else await addQaPair(baseId, body);
      message.success(t(editing?.pair ? "knowledge.qa.saved" : "knowledge.qa.created"));
      setEditing(null);
      await refresh();
    });
  };
  const remove = (pair: Segment) =>
    run(async () => {
      await deleteSegment(baseId, pair.id);
      message.success(t("knowledge.page.deleted"));
      await refresh();
    });
  const doImport = async () => {
    // Doc 2 §5: a CSV file must be chosen.
    if (!csv) {
      setCsvError(true);
      return;
    }
    await run(async () => {
      const { imported } = await importQaCsv(baseId, csv);
      message.success(t("knowledge.qa.imported", { count: imported }));
      setImporting(false);
      setPage(1);
      await refresh();
    });
  };
  const required = { required: true, whitespace: true, message: t("knowledge.qa.required") };

  return (
    <div data-testid="qa-panel">
      <Space style={{ marginBottom: 12 }} wrap>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ pair: null })} data-testid="qa-add">
          {t("knowledge.qa.add")}
        </Button>
        <Button
          icon={<ImportOutlined />}
          onClick={() => {
            setCsv(null);
            setCsvError(false);
            setImporting(true);
          }}
          data-testid="qa-import"
        >
          {t("knowledge.qa.import")}
        </Button>
      </Space>
      <Table<Segment>
        rowKey="id"
        size="middle"
        loading={query.isFetching}
        dataSource={list}
        locale={{ emptyText: t("knowledge.qa.empty") }}
        data-testid="qa-table"
        onRow={() => ({ "data-testid": "qa-row" }) as React.HTMLAttributes<HTMLElement>}
        pagination={{ current: page, pageSize: QA_PAGE_SIZE, total, onChange: setPage, showSizeChanger: false, hideOnSinglePage: true }}
        scroll={{ x: 800 }}
        columns={[
          {
            title: t("knowledge.qa.question"),
            dataIndex: "question",
            width: "35%",
            render: (q: string, p) => (
              <Space size={4} align="start">
                <span>{q}</span>
                {p.fileId && <Tag>{t("knowledge.qa.fromFile")}</Tag>}
              </Space>
            ),
          },
          {
            title: t("knowledge.qa.answer"),
            dataIndex: "answer",
            render: (a: string) => (
              <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }} ellipsis={{ rows: 3, expandable: true }}>
                {a}
              </Typography.Paragraph>
            ),
          },
          {
            title: t("knowledge.page.actions"),
            key: "actions",
            width: 140,
            render: (_, p) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing({ pair: p })} data-testid="qa-edit">
                  {t("knowledge.segments.edit")}
                </Button>
                <Popconfirm
                  title={t("knowledge.qa.confirmDelete")}
                  okText={t("common.confirm")}
                  cancelText={t("common.cancel")}
                  onConfirm={() => remove(p)}
                >
                  <Button type="link" size="small" danger data-testid="qa-delete">
                    {t("knowledge.page.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={!!editing}
        title={editing?.pair ? t("knowledge.qa.editTitle") : t("knowledge.qa.add")}
        onCancel={() => setEditing(null)}
        onOk={save}
        confirmLoading={busy}
        okText={t("common.confirm")}
        cancelText={t("common.cancel")}
        width={640}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" data-testid="qa-form">
          <Form.Item name="question" label={t("knowledge.qa.question")} rules={[required]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={2000} data-testid="qa-question" />
          </Form.Item>
          <Form.Item name="answer" label={t("knowledge.qa.answer")} rules={[required]}>
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} maxLength={20000} showCount data-testid="qa-answer" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={importing}
        title={t("knowledge.qa.import")}
        onCancel={() => setImporting(false)}
        onOk={doImport}
        confirmLoading={busy}
        okText={t("common.confirm")}
        cancelText={t("common.cancel")}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t("knowledge.qa.importHint")}</Typography.Paragraph>
        <Upload
          accept=".csv"
          maxCount={1}
          fileList={csv ? [{ uid: "csv", name: csv.name, status: "done" }] : []}
          beforeUpload={(file) => {
            const isCsv = file.name.toLowerCase().endsWith(".csv");
            setCsv(isCsv ? file : null);
            setCsvError(!isCsv);
            return false;
          }}
          onRemove={() => setCsv(null)}
          data-testid="qa-csv"
        >
          <Button icon={<UploadOutlined />}>{t("knowledge.qa.chooseCsv")}</Button>
        </Upload>
        {csvError && (
          <Alert style={{ marginTop: 12 }} type="error" showIcon title={t("knowledge.qa.csvRequired")} data-testid="qa-csv-required" />
        )}
      </Modal>
    </div>
  );
}
