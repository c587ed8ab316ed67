import { ArrowLeftOutlined, CloudUploadOutlined } from "@ant-design/icons";
import type { KnowledgeFile } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Card, Col, Result, Row, Space, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { useKnowledgeContents } from "../api/contents";
import { useKnowledgeBase } from "../api/knowledge-base";
import { FilesTable } from "../components/files-table";
import { RetrievalPanel } from "../components/retrieval-panel";
import { SegmentsDrawer } from "../components/segments-drawer";
import { UploadWizard, type WizardFile } from "../components/upload-wizard";

/** /knowledge-list?id= (doc 2 §2): a base's files, the upload wizard, segments and the retrieval test. */
export function KnowledgeListPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const queryClient = useQueryClient();
  const base = useKnowledgeBase(id);
  const contents = useKnowledgeContents(id);
  const [wizard, setWizard] = useState<{ files?: WizardFile[] } | null>(null);
  const [browsing, setBrowsing] = useState<KnowledgeFile | null>(null);
  const folders = useMemo(() => new Map((contents.data?.folders ?? []).map((f) => [f.id, f.name])), [contents.data]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["knowledge", "contents", id] });

  if (!id || base.isError) {
    return (
      <Result
        status="404"
        title={t("knowledge.page.notFound")}
        extra={
          <Link to="/home?types=2">
            <Button>{t("knowledge.page.back")}</Button>
          </Link>
        }
      />
    );
  }
  return (
    <div style={{ maxWidth: 1280, margin: "0 auto" }}>
      <Space style={{ marginBottom: 16 }} align="center">
        <Link to="/home?types=2">
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t("knowledge.page.back")} />
        </Link>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="knowledge-title">
          {base.data?.name}
        </Typography.Title>
      </Space>
      <Row gutter={[16, 16]}>
        <Col span={24}>
          <Card
            title={t("knowledge.page.files")}
            extra={
              <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => setWizard({})} data-testid="open-wizard">
                {t("knowledge.page.upload")}
              </Button>
            }
          >
            <FilesTable
              baseId={id}
              files={contents.data?.files ?? []}
              folders={folders}
              loading={contents.isLoading}
              onSegment={(f) => setWizard({ files: [{ fileId: f.id, name: f.name }] })}
              onBrowse={setBrowsing}
              onChanged={refresh}
            />
          </Card>
        </Col>
        <Col span={24}>
          <RetrievalPanel baseId={id} />
        </Col>
      </Row>
      <UploadWizard
        baseId={id}
        open={wizard !== null}
        files={wizard?.files}
        onClose={() => {
          setWizard(null);
          refresh();
        }}
        onCommitted={refresh}
      />
      <SegmentsDrawer baseId={id} file={browsing ? { fileId: browsing.id, name: browsing.name } : null} onClose={() => setBrowsing(null)} />
    </div>
  );
}
