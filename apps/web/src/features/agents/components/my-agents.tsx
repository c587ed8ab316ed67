import { PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { AGENT_PAGE_SIZE, type AgentCard, isUnreleased } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Col, Empty, Input, Pagination, Row, Select, Space, Spin, Upload } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { useGates } from "../../auth/use-gates";
import { usePlatformSettings } from "../../auth/api/platform-settings";
import { useUserInfo } from "../../auth/api/user-info";
import { exportAgentZip, importAgentZip } from "../api/backup";
import { deleteAgent } from "../api/delete-agent";
import { useMinePage } from "../api/mine-page";
import { stepBackPage } from "../paging";
import { NEW_AGENT_PATH, setStudioAgentId } from "../studio-session";
import { IntroModal } from "./intro-modal";
import { ListDialog } from "./list-dialog";
import { executePath } from "./market-card";
import { MyAgentCard } from "./my-agent-card";

/** My agents (doc 1 §2 mine mode): create, search, source and listing filters, cards, paging. */
export function MyAgents() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const gates = useGates();
  const queryClient = useQueryClient();
  const settings = usePlatformSettings();
  const user = useUserInfo();
  const [name, setName] = useState("");
  const [source, setSource] = useState<"all" | "created" | "copied">("all");
  const [status, setStatus] = useState<"all" | "C90_Launched" | "C90_bay">("all");
  const [page, setPage] = useState(1);
  const [intro, setIntro] = useState<{ agent: AgentCard; mode: "rename" | "settings" } | null>(null);
  const [listing, setListing] = useState<AgentCard | null>(null);
  const query = useMinePage({
    name: name || undefined,
    copyByMe: source === "all" ? undefined : source === "copied",
    status: status === "all" ? undefined : status,
    page,
    size: AGENT_PAGE_SIZE,
  });
  const list = query.data?.list ?? [];
  const total = query.data?.total ?? 0;

  // Lists step back a page when the current last page becomes empty (doc 1 §4).
  useEffect(() => {
    if (!query.isSuccess || query.isPlaceholderData) return;
    const back = stepBackPage(page, list.length, total, AGENT_PAGE_SIZE);
    if (back !== null) setPage(back);
  }, [query.isSuccess, query.isPlaceholderData, list.length, page, total]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["agents"] });
  // The hover menu is for non-typed agents when the caller is not in the configured enterprise tenant.
  const enterprise = settings.data?.enterpriseTenant;
  const showMenu = !(enterprise && user.data?.tenantDomain === enterprise);

  const openStudio = (id: string) => {
    setStudioAgentId(id);
    navigate("/studio");
  };
  // Creating needs a sign-in (doc 1 §5); the studio it opens is membership-gated, so check that first.
  // The studio creates the agent on its first save.
  const create = () => {
    if (gates.requireMembership()) navigate(NEW_AGENT_PATH);
  };
  // An unreleased agent has no version to run: 'please publish and use first', with the way there.
  const start = (agent: AgentCard) => {
    if (!isUnreleased(agent.agentStatus)) return navigate(executePath(agent));
    modal.confirm({
      title: t("agents.detail.notPublished"),
      content: t("agents.mine.publishHint"),
      okText: t("agents.mine.goStudio"),
      cancelText: t("common.cancel"),
      onOk: () => openStudio(agent.id),
    });
  };

  return (
    <div>
      <div style={{ display: "flex", justifyContent: "space-between", gap: 12, marginBottom: 16, flexWrap: "wrap" }}>
        <Space>
          <Button type="primary" icon={<PlusOutlined />} onClick={create} data-testid="create-agent">
            {t("agents.mine.create")}
          </Button>
          <Upload
            accept=".zip"
            showUploadList={false}
            beforeUpload={(file) => {
              if (!file.name.toLowerCase().endsWith(".zip")) {
                message.error(t("agents.mine.zipRequired"));
                return false;
              }
              void importAgentZip(file).then(async (r) => {
                message.success(t("agents.mine.imported", { name: r.agentName }));
                const missing = Object.entries(r.missing).map(([kind, ids]) => `${kind} (${ids.length})`);
                if (missing.length) message.warning(t("agents.mine.importMissing", { list: missing.join(", ") }));
                await refresh();
              });
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="import-agent">
              {t("agents.mine.importZip")}
            </Button>
          </Upload>
        </Space>
        <Space wrap>
          <Select
            value={source}
            onChange={(v) => {
              setSource(v);
              setPage(1);
            }}
            style={{ width: 130 }}
            options={[
              { value: "all", label: t("agents.mine.allSources") },
              { value: "created", label: t("agents.mine.createdByMe") },
              { value: "copied", label: t("agents.mine.copiedByMe") },
            ]}
            data-testid="filter-source"
          />
          <Select
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage(1);
            }}
            style={{ width: 120 }}
            options={[
              { value: "all", label: t("agents.mine.allStatus") },
              { value: "C90_Launched", label: t("agents.mine.listed") },
              { value: "C90_bay", label: t("agents.mine.notListed") },
            ]}
            data-testid="filter-status"
          />
          <Input.Search
            allowClear
            placeholder={t("agents.mine.search")}
            style={{ width: 240 }}
            onSearch={(v) => {
              setName(v.trim());
              setPage(1);
            }}
            data-testid="mine-search"
          />
        </Space>
      </div>
      <Spin spinning={query.isFetching && !query.isPlaceholderData}>
        {query.isSuccess && list.length === 0 ? (
          <Empty
            style={{ padding: 48 }}
            description={
              <Space direction="vertical">
                <span>{t("agents.mine.noData")}</span>
                <Link to="/index">{t("agents.mine.goMarket")}</Link>
              </Space>
            }
          />
        ) : (
          <Row gutter={[16, 16]}>
            {list.map((a) => (
              <Col key={a.id} xs={24} sm={12} md={8} lg={6}>
                <MyAgentCard
                  agent={a}
                  showMenu={showMenu}
                  actions={{
                    onStart: () => start(a),
                    onEdit: () => openStudio(a.id),
                    onDelete: async () => {
                      await deleteAgent(a.id);
                      message.success(t("agents.mine.deleteSuccess"));
                      await refresh();
                    },
                    onSettings: () => setIntro({ agent: a, mode: "settings" }),
                    onRename: () => setIntro({ agent: a, mode: "rename" }),
                    onList: () => setListing(a),
                    onExport: () => void exportAgentZip(a.id).catch((e: Error) => message.error(e.message)),
                  }}
                />
              </Col>
            ))}
          </Row>
        )}
      </Spin>
      {total > AGENT_PAGE_SIZE && (
        <Pagination
          style={{ marginTop: 24, textAlign: "center" }}
          current={page}
          pageSize={AGENT_PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          onChange={setPage}
        />
      )}
      <ListDialog agent={listing} onClose={() => setListing(null)} onListed={refresh} />
      <IntroModal
        agent={intro?.agent ?? null}
        mode={intro?.mode ?? "rename"}
        onClose={() => setIntro(null)}
        onSaved={() => {
          setIntro(null);
          refresh();
        }}
      />
    </div>
  );
}
