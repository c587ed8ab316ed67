import { type ApplyItem, type ApplyStatus, REVIEW_PAGE_SIZE } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Descriptions, Form, Input, Modal, Popconfirm, Result, Segmented, Space, Table, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AgentIcon } from "../../../components/icon-picker/agent-icon";
import { useUserInfo } from "../../auth/api/user-info";
import { useApplyPage } from "../api/apply-page";
import { approveApply, rejectApply } from "../api/review-apply";
import { setShelf } from "../api/set-shelf";
import { validated } from "../../../lib/form";

const STATUS_COLOR: Record<ApplyStatus, string> = { PENDING: "processing", APPROVED: "green", REJECTED: "red" };

/** The administrator's listing review queue: approve lists the version, reject returns it with a reason. */
export function ReviewPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (!user.data) return null;
  // Checked before the queue is requested: a non-administrator gets one 403 screen, no error toasts.
  if (!user.data.isAdmin) return <Result status="403" title={t("http.unauthorized")} />;
  return <ReviewQueue />;
}

function ReviewQueue() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ApplyStatus | "ALL">("PENDING");
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<ApplyItem | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const query = useApplyPage({ status: status === "ALL" ? undefined : status, page, size: REVIEW_PAGE_SIZE });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["agents"] });

  const approve = async (item: ApplyItem) => {
    await approveApply(item.id);
    message.success(t("agents.review.approved"));
    await refresh();
  };
  const reject = async () => {
    if (!rejecting) return;
    const values = await validated(form);
    if (!values) return;
    const { reason } = values;
    await rejectApply(rejecting.id, reason.trim());
    message.success(t("agents.review.rejected"));
    setRejecting(null);
    await refresh();
  };
  const shelf = async (item: ApplyItem, disabled: boolean) => {
    await setShelf(item.agentId, disabled);
    message.success(t("agents.review.shelfDone"));
    await refresh();
  };

  return (
    <div style={{ maxWidth: 1280, margin: "0 auto" }}>
      <Card
        title={t("agents.review.title")}
        extra={
          <Segmented
            value={status}
            onChange={(v) => {
              setStatus(v as ApplyStatus | "ALL");
              setPage(1);
            }}
            options={[
              { value: "PENDING", label: t("agents.review.PENDING") },
              { value: "APPROVED", label: t("agents.review.APPROVED") },
              { value: "REJECTED", label: t("agents.review.REJECTED") },
              { value: "ALL", label: t("agents.review.all") },
            ]}
            data-testid="review-status"
          />
        }
      >
        <Table<ApplyItem>
          rowKey="id"
          loading={query.isFetching}
          dataSource={query.data?.list ?? []}
          locale={{ emptyText: t("common.noData") }}
          pagination={{
            current: page,
            pageSize: REVIEW_PAGE_SIZE,
            total: query.data?.total ?? 0,
            onChange: setPage,
            showSizeChanger: false,
          }}
          expandable={{
            expandedRowRender: (r) => (
              <Descriptions column={1} size="small" bordered>
                <Descriptions.Item label={t("agents.review.persona")}>
                  <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>{r.persona || "—"}</Typography.Paragraph>
                </Descriptions.Item>
                <Descriptions.Item label={t("agents.review.prologue")}>{r.prologue || "—"}</Descriptions.Item>
                <Descriptions.Item label={t("agents.review.presetQuestions")}>{r.presetQuestions.join(" / ") || "—"}</Descriptions.Item>
                <Descriptions.Item label={t("agents.review.notes")}>{r.notes || "—"}</Descriptions.Item>
              </Descriptions>
            ),
          }}
          columns={[
            {
              title: t("agents.review.agent"),
              render: (_, r) => (
                <Space>
                  <AgentIcon icon={r.agentIcon} background={r.agentIconBackground} size={36} />
                  <div>
                    <Typography.Text strong data-testid="review-agent-name">
                      {r.agentName}
                    </Typography.Text>
                    <div>
                      <Typography.Text type="secondary" ellipsis style={{ maxWidth: 260, fontSize: 12 }}>
                        {r.agentDescription}
                      </Typography.Text>
                    </div>
                  </div>
                </Space>
              ),
            },
            { title: t("agents.review.applicant"), dataIndex: "applicant" },
            { title: t("agents.review.tenant"), dataIndex: "tenantName" },
            {
              title: t("agents.review.version"),
              render: (_, r) => (
                <Space size={4} wrap>
                  {`v${r.versionNo}`}
                  {r.price > 0 && <Tag color="orange">¥{r.price}</Tag>}
                  <Tag color={r.copyable ? "gold" : undefined}>
                    {t(r.copyable ? "agents.review.copyable" : "agents.review.notCopyable")}
                  </Tag>
                </Space>
              ),
            },
            { title: t("agents.review.submittedAt"), render: (_, r) => dayjs(r.createdAt).format("YYYY-MM-DD HH:mm") },
            {
              title: t("agents.review.status"),
              render: (_, r) => (
                <Space direction="vertical" size={0}>
                  <Tag color={STATUS_COLOR[r.status]}>{t(`agents.review.${r.status}`)}</Tag>
                  {r.reason && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {r.reason}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              title: t("agents.review.actions"),
              render: (_, r) =>
                r.status === "PENDING" ? (
                  <Space>
                    <Popconfirm
                      title={t("agents.review.confirmApprove")}
                      onConfirm={() => approve(r)}
                      okText={t("common.confirm")}
                      cancelText={t("common.cancel")}
                    >
                      <Button type="primary" size="small" data-testid="review-approve">
                        {t("agents.review.approve")}
                      </Button>
                    </Popconfirm>
                    <Button
                      danger
                      size="small"
                      onClick={() => {
                        form.resetFields();
                        setRejecting(r);
                      }}
                      data-testid="review-reject"
                    >
                      {t("agents.review.reject")}
                    </Button>
                  </Space>
                ) : r.status === "APPROVED" ? (
                  <Space>
                    <Button size="small" onClick={() => shelf(r, true)}>
                      {t("agents.review.offShelf")}
                    </Button>
                    <Button size="small" type="link" onClick={() => shelf(r, false)}>
                      {t("agents.review.onShelf")}
                    </Button>
                  </Space>
                ) : null,
            },
          ]}
        />
      </Card>
      <Modal
        open={!!rejecting}
        title={t("agents.review.rejectTitle")}
        onCancel={() => setRejecting(null)}
        onOk={reject}
        okText={t("agents.review.reject")}
        cancelText={t("common.cancel")}
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="reason"
            label={t("agents.review.reason")}
            rules={[{ required: true, whitespace: true, message: t("agents.review.reasonRequired") }]}
          >
            <Input.TextArea rows={3} maxLength={200} showCount data-testid="reject-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
