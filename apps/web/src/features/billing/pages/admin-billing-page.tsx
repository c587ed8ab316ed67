import { type AdminPlanTemplate, MEMBER_LEVELS, type DurationConfig, type Order, type RechargeOption } from "@agentfair/contracts";
import {
  App as AntApp,
  Button,
  Card,
  Result,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Typography,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import { useUserInfo } from "../../auth/api/user-info";
import { adminApi, type BenefitBatch } from "../api/admin";
import { CrudTab } from "../components/crud-tab";
import { OrderStatusTag } from "../components/order-status-tag";
import { validated } from "../../../lib/form";
import { orderTitleText } from "../order-title";

/** Administrator screens: plans, durations, top-up options, benefit-code batches, orders, transfers. */
export function AdminBillingPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (!user.data) return null;
  if (!user.data.isAdmin) return <Result status="403" title="403" subTitle={t("http.unauthorized")} />;
  return (
    <Card style={{ maxWidth: 1400, margin: "0 auto" }} title={t("billing.admin.title")}>
      <Tabs
        items={[
          { key: "plans", label: t("billing.admin.plans"), children: <Plans /> },
          { key: "durations", label: t("billing.admin.durations"), children: <Durations /> },
          { key: "recharge", label: t("billing.admin.recharge"), children: <Recharge /> },
          { key: "benefit", label: t("billing.admin.benefit"), children: <Benefit /> },
          { key: "orders", label: t("billing.admin.orders"), children: <Orders /> },
          { key: "transfers", label: t("billing.admin.transfers"), children: <Transfers /> },
        ]}
      />
    </Card>
  );
}

const yesNo = (t: (k: string) => string) => (v: boolean) => (v ? t("billing.admin.yes") : t("billing.admin.no"));
const NUM_FIELDS = ["countPerDay", "paidAgentCount", "insightPerDay", "editCount", "knowledgeSpace", "pluginsNum", "invitedNum"] as const;

function Plans() {
  const { t } = useTranslation();
  return (
    <CrudTab<AdminPlanTemplate>
      testId="plans"
      queryKey="plans"
      load={adminApi.plans}
      save={adminApi.savePlan}
      remove={adminApi.deletePlan}
      defaults={{
        category: "PERSONAL",
        memberLevel: "MONTHLY",
        num: 0,
        discount: 1,
        fees: 0,
        sort: 0,
        enabled: true,
        description: "",
        nameEn: "",
        descriptionEn: "",
        types: "",
        ...Object.fromEntries(NUM_FIELDS.map((k) => [k, 0])),
      }}
      columns={[
        {
          title: t("billing.admin.category"),
          dataIndex: "category",
          render: (c: string) => (c === "PERSONAL" ? t("billing.personal") : t("billing.team")),
        },
        { title: t("billing.admin.level"), dataIndex: "memberLevel", render: (l: string) => t(`billing.levels.${l}`) },
        { title: t("billing.admin.name"), dataIndex: "name" },
        { title: t("billing.admin.nameEn"), dataIndex: "nameEn" },
        { title: t("billing.admin.num"), dataIndex: "num" },
        { title: t("billing.admin.discount"), dataIndex: "discount" },
        ...NUM_FIELDS.map((k) => ({ title: t(`billing.admin.${k}`), dataIndex: k })),
        { title: t("billing.admin.fees"), dataIndex: "fees" },
        { title: t("billing.admin.sort"), dataIndex: "sort" },
        { title: t("billing.admin.enabled"), dataIndex: "enabled", render: yesNo(t) },
      ]}
      fields={
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="category" label={t("billing.admin.category")} rules={[{ required: true }]}>
              <Radio.Group
                options={[
                  { value: "PERSONAL", label: t("billing.personal") },
                  { value: "ENTERPRISE", label: t("billing.team") },
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="memberLevel" label={t("billing.admin.level")} rules={[{ required: true }]}>
              <Select options={MEMBER_LEVELS.map((l) => ({ value: l, label: t(`billing.levels.${l}`) }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="name" label={t("billing.admin.name")} rules={[{ required: true, whitespace: true, max: 40 }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="nameEn" label={t("billing.admin.nameEn")} rules={[{ whitespace: true, max: 60 }]}>
              <Input data-testid="plan-name-en" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="description" label={t("billing.admin.description")}>
              <Input.TextArea rows={2} maxLength={500} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="descriptionEn" label={t("billing.admin.descriptionEn")}>
              <Input.TextArea rows={2} maxLength={800} data-testid="plan-description-en" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="types" label={t("billing.admin.types")}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="num" label={t("billing.admin.num")} rules={[{ required: true }]}>
              <InputNumber min={0} precision={2} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="discount" label={t("billing.admin.discount")} rules={[{ required: true }]}>
              <InputNumber min={0.01} max={1} step={0.05} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="fees" label={t("billing.admin.fees")}>
              <InputNumber min={0} precision={2} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          {NUM_FIELDS.map((k) => (
            <Col span={6} key={k}>
              <Form.Item name={k} label={t(`billing.admin.${k}`)}>
                <InputNumber min={0} precision={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
          ))}
          <Col span={6}>
            <Form.Item name="sort" label={t("billing.admin.sort")}>
              <InputNumber min={0} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="enabled" label={t("billing.admin.enabled")} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      }
    />
  );
}

function Durations() {
  const { t } = useTranslation();
  return (
    <CrudTab<DurationConfig>
      testId="durations"
      queryKey="durations"
      load={adminApi.durations}
      save={adminApi.saveDuration}
      remove={adminApi.deleteDuration}
      defaults={{ monthNum: 1, priceDiscount: 1, enabled: true }}
      columns={[
        { title: t("billing.admin.monthNum"), dataIndex: "monthNum" },
        { title: t("billing.admin.priceDiscount"), dataIndex: "priceDiscount" },
        { title: t("billing.admin.enabled"), dataIndex: "enabled", render: yesNo(t) },
      ]}
      fields={
        <>
          <Form.Item name="monthNum" label={t("billing.admin.monthNum")} rules={[{ required: true }]}>
            <InputNumber min={1} max={120} precision={0} />
          </Form.Item>
          <Form.Item name="priceDiscount" label={t("billing.admin.priceDiscount")} rules={[{ required: true }]}>
            <InputNumber min={0.01} max={1} step={0.05} />
          </Form.Item>
          <Form.Item name="enabled" label={t("billing.admin.enabled")} valuePropName="checked">
            <Switch />
          </Form.Item>
        </>
      }
    />
  );
}

function Recharge() {
  const { t } = useTranslation();
  return (
    <CrudTab<RechargeOption>
      testId="recharge"
      queryKey="recharge"
      load={adminApi.recharge}
      save={adminApi.saveRecharge}
      remove={adminApi.deleteRecharge}
      defaults={{ amount: 100, enabled: true }}
      columns={[
        { title: t("billing.admin.amount"), dataIndex: "amount" },
        { title: t("billing.admin.enabled"), dataIndex: "enabled", render: yesNo(t) },
      ]}
      fields={
        <>
          <Form.Item name="amount" label={t("billing.admin.amount")} rules={[{ required: true }]}>
            <InputNumber min={1} max={50000} precision={2} />
          </Form.Item>
          <Form.Item name="enabled" label={t("billing.admin.enabled")} valuePropName="checked">
            <Switch />
          </Form.Item>
        </>
      }
    />
  );
}

function Benefit() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const batches = useQuery({ queryKey: ["billing", "admin", "batches"], queryFn: adminApi.batches });
  const [creating, setCreating] = useState(false);
  const [codesOf, setCodesOf] = useState<BenefitBatch | null>(null);
  const [generated, setGenerated] = useState<string[] | null>(null);
  const codes = useQuery({
    queryKey: ["billing", "admin", "codes", codesOf?.id],
    queryFn: () => adminApi.codes(codesOf?.id as string),
    enabled: !!codesOf,
  });
  const [form] = Form.useForm();
  const grant = Form.useWatch("grant", form);
  const submit = async () => {
    const v = await validated(form);
    if (!v) return;
    const body = {
      name: v.name,
      grant: v.grant,
      count: v.count,
      ...(v.grant === "LEVEL" ? { memberLevel: v.memberLevel, days: v.days } : { amount: v.amount }),
      ...(v.expiresAt ? { expiresAt: (v.expiresAt as Dayjs).toISOString() } : {}),
    };
    const res = await adminApi.createBatch(body);
    message.success(t("billing.admin.generated", { count: res.codes.length }));
    setCreating(false);
    setGenerated(res.codes);
    batches.refetch();
  };
  return (
    <>
      <Button
        type="primary"
        style={{ marginBottom: 12 }}
        onClick={() => {
          form.resetFields();
          form.setFieldsValue({ grant: "LEVEL", memberLevel: "MONTHLY", days: 30, count: 10 });
          setCreating(true);
        }}
      >
        {t("billing.admin.generate")}
      </Button>
      <Table<BenefitBatch>
        rowKey="id"
        size="middle"
        loading={batches.isLoading}
        dataSource={batches.data ?? []}
        locale={{ emptyText: t("common.noData") }}
        pagination={false}
        columns={[
          { title: t("billing.admin.batchName"), dataIndex: "name" },
          {
            title: t("billing.admin.grant"),
            render: (_, b) => (b.grant === "LEVEL" ? `${t(`billing.levels.${b.memberLevel}`)} × ${b.days}` : `¥${b.amount}`),
          },
          { title: t("billing.admin.count"), dataIndex: "count" },
          { title: t("billing.admin.redeemed"), dataIndex: "redeemed" },
          {
            title: t("billing.admin.expiresAt"),
            dataIndex: "expiresAt",
            render: (v: string | null) => (v ? dayjs(v).format("YYYY-MM-DD HH:mm") : "-"),
          },
          { title: t("billing.order.time"), dataIndex: "createTime", render: (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm") },
          {
            title: t("billing.order.actions"),
            render: (_, b) => (
              <Button size="small" type="link" onClick={() => setCodesOf(b)}>
                {t("billing.admin.codes")}
              </Button>
            ),
          },
        ]}
      />
      <Modal
        open={creating}
        title={t("billing.admin.generate")}
        onCancel={() => setCreating(false)}
        onOk={submit}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item name="name" label={t("billing.admin.batchName")} rules={[{ required: true, whitespace: true, max: 60 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="grant" label={t("billing.admin.grant")}>
            <Radio.Group
              options={[
                { value: "LEVEL", label: t("billing.admin.grantLevel") },
                { value: "AMOUNT", label: t("billing.admin.grantAmount") },
              ]}
            />
          </Form.Item>
          {grant === "AMOUNT" ? (
            <Form.Item name="amount" label={t("billing.admin.amount")} rules={[{ required: true }]}>
              <InputNumber min={0.01} max={50000} precision={2} />
            </Form.Item>
          ) : (
            <Space>
              <Form.Item name="memberLevel" label={t("billing.admin.level")} rules={[{ required: true }]}>
                <Select
                  style={{ width: 200 }}
                  options={MEMBER_LEVELS.filter((l) => l !== "FREE").map((l) => ({ value: l, label: t(`billing.levels.${l}`) }))}
                />
              </Form.Item>
              <Form.Item name="days" label={t("billing.admin.days")} rules={[{ required: true }]}>
                <InputNumber min={1} max={3660} precision={0} />
              </Form.Item>
            </Space>
          )}
          <Space>
            <Form.Item name="count" label={t("billing.admin.count")} rules={[{ required: true }]}>
              <InputNumber min={1} max={1000} precision={0} />
            </Form.Item>
            <Form.Item name="expiresAt" label={t("billing.admin.expiresAt")}>
              <DatePicker showTime />
            </Form.Item>
          </Space>
        </Form>
      </Modal>
      <Modal
        open={!!generated}
        title={t("billing.admin.generated", { count: generated?.length ?? 0 })}
        footer={null}
        onCancel={() => setGenerated(null)}
      >
        <Typography.Paragraph copyable={{ text: generated?.join("\n") ?? "" }}>
          <pre data-testid="generated-codes" style={{ maxHeight: 300, overflow: "auto" }}>
            {generated?.join("\n")}
          </pre>
        </Typography.Paragraph>
      </Modal>
      <Modal open={!!codesOf} title={codesOf?.name} footer={null} onCancel={() => setCodesOf(null)} width={640}>
        <Table
          rowKey="code"
          size="small"
          loading={codes.isLoading}
          dataSource={codes.data ?? []}
          pagination={{ pageSize: 10 }}
          columns={[
            { title: t("billing.admin.code"), dataIndex: "code", render: (c: string) => <Typography.Text copyable>{c}</Typography.Text> },
            { title: t("billing.admin.redeemedBy"), dataIndex: "redeemedBy", render: (v: string | null) => v ?? "-" },
            {
              title: t("billing.admin.redeemedAt"),
              dataIndex: "redeemedAt",
              render: (v: string | null) => (v ? dayjs(v).format("YYYY-MM-DD HH:mm") : "-"),
            },
          ]}
        />
      </Modal>
    </>
  );
}

function Orders() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [page, setPage] = useState(0);
  const orders = useQuery({ queryKey: ["billing", "admin", "orders", page], queryFn: () => adminApi.orders(page) });
  const act = async (o: Order, action: "refund" | "freeze" | "release") => {
    await adminApi.orderAction(o.orderId, action);
    message.success(t("billing.admin.saved"));
    orders.refetch();
  };
  const actionButton = (o: Order, action: "refund" | "freeze" | "release") => (
    <Popconfirm
      key={action}
      title={t("billing.admin.confirmAction", { action: t(`billing.admin.${action}`) })}
      onConfirm={() => act(o, action)}
    >
      <Button size="small" type="link" danger={action !== "release"}>
        {t(`billing.admin.${action}`)}
      </Button>
    </Popconfirm>
  );
  return (
    <>
      <Button
        style={{ marginBottom: 12 }}
        onClick={async () => {
          await adminApi.reconcile();
          orders.refetch();
        }}
      >
        {t("billing.admin.reconcile")}
      </Button>
      <Table<Order>
        rowKey="orderId"
        size="middle"
        loading={orders.isLoading}
        dataSource={orders.data?.list ?? []}
        locale={{ emptyText: t("common.noData") }}
        scroll={{ x: "max-content" }}
        pagination={{
          current: page + 1,
          pageSize: 100,
          total: orders.data?.total ?? 0,
          onChange: (p) => setPage(p - 1),
          showSizeChanger: false,
        }}
        columns={[
          { title: t("billing.order.orderNo"), dataIndex: "orderNo" },
          { title: t("billing.order.user"), dataIndex: "username" },
          { title: t("billing.order.title"), dataIndex: "title", render: (v: string, o: Order) => orderTitleText(v, t, o.monthNum) },
          { title: t("billing.order.amount"), dataIndex: "totalAmount", render: (a: number) => `¥${a.toFixed(2)}` },
          {
            title: t("billing.order.status"),
            dataIndex: "orderStatus",
            render: (s: Order["orderStatus"]) => <OrderStatusTag status={s} />,
          },
          { title: t("billing.order.time"), dataIndex: "createTime", render: (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm") },
          {
            title: t("billing.order.paidTime"),
            dataIndex: "paidTime",
            render: (v: string | null) => (v ? dayjs(v).format("YYYY-MM-DD HH:mm") : "-"),
          },
          {
            title: t("billing.order.actions"),
            render: (_, o) => (
              <Space>
                {o.orderStatus === "PAID" && [actionButton(o, "refund"), actionButton(o, "freeze")]}
                {o.orderStatus === "FROZEN" && [actionButton(o, "release"), actionButton(o, "refund")]}
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}

function Transfers() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ["billing", "admin", "transfers"], queryFn: adminApi.transfers });
  return (
    <Table
      rowKey="id"
      size="middle"
      loading={list.isLoading}
      dataSource={list.data ?? []}
      locale={{ emptyText: t("common.noData") }}
      columns={[
        { title: t("billing.transfer.companyName"), dataIndex: "companyName" },
        { title: t("billing.transfer.contacts"), dataIndex: "contacts" },
        { title: t("billing.order.user"), dataIndex: "username" },
        { title: t("billing.order.time"), dataIndex: "createTime", render: (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm") },
        {
          title: t("billing.admin.receipt"),
          render: (_, r) => (
            <a href={`/agent_api/api/admin/billing/transfers/${r.id}/img`} target="_blank" rel="noreferrer">
              {t("billing.admin.receipt")}
            </a>
          ),
        },
      ]}
    />
  );
}
