import { BILLING_TIME_ZONE, BUY_QR_SIZE, ORDER_PAGE_SIZE, type Order, type OrderCreated } from "@agentfair/contracts";
import { App as AntApp, Button, Card, Modal, Popconfirm, Radio, Space, Table, Tabs } from "antd";
import dayjs from "dayjs";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { cancelOrder } from "../api/cancel-order";
import { useOrderList } from "../api/order-list";
import { rePayOrder } from "../api/re-pay-order";
import { useWalletLog } from "../api/wallet-log";
import { OrderStatusTag } from "../components/order-status-tag";
import { PayQr } from "../components/pay-qr";
import { TopUpQrDialog } from "../components/top-up-qr-dialog";
import { UsageCharts } from "../components/usage-charts";
import { usePayWatch } from "../components/use-pay-watch";
import { WalletLogTable } from "../components/wallet-log-table";
import { orderTitleText } from "../order-title";

const USER_ORDER_TABS = ["orders", "usage", "wallet"];

/** /user-order: orders (100 a page) with re-pay and cancel, consumption charts, the wallet log. */
export function UserOrderPage() {
  const { t } = useTranslation();
  // ?tab=usage opens the consumption details (the button of that name on /recharge).
  const [params] = useSearchParams();
  const [tab, setTab] = useState(() => (USER_ORDER_TABS.includes(params.get("tab") ?? "") ? (params.get("tab") as string) : "orders"));
  return (
    <Card style={{ maxWidth: 1200, margin: "0 auto" }}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: "orders", label: t("billing.order.tab"), children: <Orders /> },
          { key: "usage", label: t("billing.usage.tab"), children: <Usage /> },
          { key: "wallet", label: t("billing.wallet.tab"), children: <Wallet /> },
        ]}
      />
    </Card>
  );
}

function Orders() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [page, setPage] = useState(0);
  const list = useOrderList(page);
  // The pending order being paid again, in the dialog of its kind.
  const [paying, setPaying] = useState<{ order: OrderCreated; kind: Order["kind"] } | null>(null);
  // Step back one page when the current last page becomes empty (doc 1 §4).
  useEffect(() => {
    if (page > 0 && list.data && list.data.list.length === 0) setPage(page - 1);
  }, [list.data, page]);
  const cancel = async (o: Order) => {
    await cancelOrder(o.orderId);
    message.success(t("billing.order.cancelled"));
    list.refetch();
  };
  return (
    <>
      <Table<Order>
        rowKey="orderId"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: t("common.noData") }}
        pagination={{
          current: page + 1,
          pageSize: ORDER_PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: (p) => setPage(p - 1),
          showSizeChanger: false,
        }}
        columns={[
          { title: t("billing.order.orderNo"), dataIndex: "orderNo" },
          { title: t("billing.order.title"), dataIndex: "title", render: (v: string, o: Order) => orderTitleText(v, t, o.monthNum) },
          { title: t("billing.order.amount"), dataIndex: "totalAmount", render: (a: number) => `¥${a.toFixed(2)}` },
          {
            title: t("billing.order.status"),
            dataIndex: "orderStatus",
            render: (s: Order["orderStatus"]) => <OrderStatusTag status={s} />,
          },
          { title: t("billing.order.time"), dataIndex: "createTime", render: (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm:ss") },
          {
            title: t("billing.order.actions"),
            render: (_, o) =>
              o.orderStatus === "PENDING" ? (
                <Space>
                  <Button size="small" type="link" onClick={async () => setPaying({ order: await rePayOrder(o.orderId), kind: o.kind })}>
                    {t("billing.order.rePay")}
                  </Button>
                  <Popconfirm title={t("billing.order.confirmCancel")} onConfirm={() => cancel(o)}>
                    <Button size="small" type="link" danger>
                      {t("billing.order.cancel")}
                    </Button>
                  </Popconfirm>
                </Space>
              ) : null,
          },
        ]}
      />
      <TopUpQrDialog order={paying?.order ?? null} open={paying?.kind === "RECHARGE"} onClose={() => setPaying(null)} />
      <MembershipPayDialog order={paying?.order ?? null} open={paying?.kind === "MEMBERSHIP"} onClose={() => setPaying(null)} />
    </>
  );
}

/** A pending membership order paid again: the buy dialog's title and its 112 px QR. */
function MembershipPayDialog({ order, open, onClose }: { order: OrderCreated | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  usePayWatch(order?.orderId, open, "delayed");
  return (
    <Modal open={open} title={t("billing.buyTitle")} footer={null} onCancel={onClose} destroyOnHidden width={320}>
      <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 8 }}>
        <div data-testid="order-amount" style={{ fontSize: 24, fontWeight: 600, color: "#f5222d" }}>
          ¥{order?.orderAmount}
        </div>
        <PayQr order={order} size={BUY_QR_SIZE} />
      </div>
    </Modal>
  );
}

const RANGES = [7, 15, 30] as const;
/** Today in the billing time zone (Asia/Shanghai), the days the server counts in, wherever the browser is. */
const billingToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: BILLING_TIME_ZONE }).format(new Date());

function Usage() {
  const { t } = useTranslation();
  const [days, setDays] = useState<(typeof RANGES)[number]>(7);
  const [page, setPage] = useState(0);
  const endDate = billingToday();
  const startDate = dayjs(endDate)
    .subtract(days - 1, "day")
    .format("YYYY-MM-DD");
  const log = useWalletLog({ type: "USE", pageNumber: page, pageSize: 10, startDate, endDate });
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Radio.Group
        value={days}
        onChange={(e) => {
          setDays(e.target.value);
          setPage(0);
        }}
        optionType="button"
        buttonStyle="solid"
        options={RANGES.map((d) => ({ value: d, label: t(`billing.usage.last${d}`) }))}
      />
      <UsageCharts data={log.data} startDate={startDate} endDate={endDate} />
      <WalletLogTable data={log.data} loading={log.isLoading} page={page} pageSize={10} onPage={setPage} />
    </Space>
  );
}

function Wallet() {
  const [page, setPage] = useState(0);
  const endDate = billingToday();
  const log = useWalletLog({ type: "ALL", pageNumber: page, pageSize: 20, startDate: "2000-01-01", endDate });
  return <WalletLogTable data={log.data} loading={log.isLoading} page={page} pageSize={20} onPage={setPage} />;
}
