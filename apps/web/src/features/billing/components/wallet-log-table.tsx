import type { WalletLogPage } from "@agentfair/contracts";
import { Table, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";

type Row = WalletLogPage["list"][number];

export function WalletLogTable({
  data,
  loading,
  page,
  pageSize,
  onPage,
}: {
  data: WalletLogPage | undefined;
  loading: boolean;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table<Row>
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={data?.list ?? []}
      locale={{ emptyText: t("common.noData") }}
      pagination={{ current: page + 1, pageSize, total: data?.total ?? 0, onChange: (p) => onPage(p - 1), showSizeChanger: false }}
      columns={[
        { title: t("billing.wallet.time"), dataIndex: "createTime", render: (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm:ss") },
        { title: t("billing.wallet.kind"), dataIndex: "kind", render: (k: Row["kind"]) => t(`billing.wallet.kinds.${k}`) },
        {
          title: t("billing.wallet.amount"),
          dataIndex: "amount",
          render: (a: number) => (
            <Typography.Text type={a < 0 ? "danger" : a > 0 ? "success" : undefined}>
              {a > 0 ? `+${a.toFixed(2)}` : a.toFixed(2)}
            </Typography.Text>
          ),
        },
        { title: t("billing.wallet.balanceAfter"), dataIndex: "balanceAfter", render: (a: number) => a.toFixed(2) },
        { title: t("billing.wallet.agent"), dataIndex: "agentName", render: (v: string | null) => v ?? "-" },
        {
          title: t("billing.wallet.note"),
          dataIndex: "note",
          render: (v: string, r) => [v, r.orderNo].filter((x, i, all) => x && all.indexOf(x) === i).join(" · ") || "-",
        },
      ]}
    />
  );
}
