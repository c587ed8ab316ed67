import { ArrowLeftOutlined, CloudUploadOutlined } from "@ant-design/icons";
import type { KnowledgeFile } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Card, Result, Space, Tabs, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { useKnowledgeContents } from "../api/contents";
import { useKnowledgeBase } from "../api/knowledge-base";
import { knowledgeSpaceKey, useKnowledgeSpace } from "../api/space";
import { FilesTable } from "../components/files-table";
import { type FolderFilter, FoldersPanel } from "../components/folders-panel";
import { QaPanel } from "../components/qa-panel";
import { RetrievalPanel } from "../components/retrieval-panel";
import { SegmentsDrawer } from "../components/segments-drawer";
import { UploadWizard, type WizardFile } from "../components/upload-wizard";
import { formatSize } from "../format";

/** /knowledge-list?id= (doc 2 §2): a base's folders and files, the upload wizard, segments, Q&A pairs and the retrieval test. */
export function KnowledgeListPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const queryClient = useQueryClient();
  const base = useKnowledgeBase(id);
  const contents = useKnowledgeContents(id);
  const space = useKnowledgeSpace();
  const [wizard, setWizard] = useState<{ files?: WizardFile[] } | null>(null);
  const [browsing, setBrowsing] = useState<KnowledgeFile | null>(null);
  const [folder, setFolder] = useState<FolderFilter>("all");
  const folderList = contents.data?.folders ?? [];
  const allFiles = contents.data?.files ?? [];
  const folders = useMemo(() => new Map(folderList.map((f) => [f.id, f.name])), [folderList]);
  const counts = useMemo(() => {
    const m = new Map<string, number>([["all", allFiles.length]]);
    for (const f of allFiles) if (f.folderId) m.set(f.folderId, (m.get(f.folderId) ?? 0) + 1);
    return m;
  }, [allFiles]);
  const shown = folder === "all" ? allFiles : allFiles.filter((f) => f.folderId === folder);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["knowledge", "contents", id] }),
      queryClient.invalidateQueries({ queryKey: knowledgeSpaceKey }),
    ]);

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
  const files = (
    <Card
      title={folder === "all" ? t("knowledge.page.files") : folders.get(folder)}
      extra={
        <Space>
          {space.data && (
            <Typography.Text type="secondary" data-testid="knowledge-space">
              {space.data.limitBytes === null
                ? t("knowledge.page.spaceUsed", { used: formatSize(space.data.usedBytes) })
                : t("knowledge.page.spaceOf", { used: formatSize(space.data.usedBytes), limit: formatSize(space.data.limitBytes) })}
            </Typography.Text>
          )}
          <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => setWizard({})} data-testid="open-wizard">
            {t("knowledge.page.upload")}
          </Button>
        </Space>
      }
    >
      <FoldersPanel baseId={id} folders={folderList} counts={counts} selected={folder} onSelect={setFolder} onChanged={refresh} />
      <FilesTable
        baseId={id}
        files={shown}
        folders={folders}
        loading={contents.isLoading}
        onSegment={(f) => setWizard({ files: [{ fileId: f.id, name: f.name }] })}
        onBrowse={setBrowsing}
        onChanged={refresh}
      />
    </Card>
  );
  return (
    <div style={{ maxWidth: 1280, margin: "0 auto" }}>
      <Space style={{ marginBottom: 8 }} align="center">
        <Link to="/home?types=2">
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t("knowledge.page.back")} />
        </Link>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="knowledge-title">
          {base.data?.name}
        </Typography.Title>
      </Space>
      <Tabs
        data-testid="knowledge-tabs"
        items={[
          { key: "files", label: t("knowledge.page.files"), children: files },
          {
            key: "qa",
            label: t("knowledge.qa.title"),
            children: (
              <Card>
                <QaPanel baseId={id} />
              </Card>
            ),
          },
          { key: "retrieval", label: t("knowledge.retrieval.title"), children: <RetrievalPanel baseId={id} /> },
        ]}
      />
      <UploadWizard
        baseId={id}
        open={wizard !== null}
        files={wizard?.files}
        folderId={folder === "all" ? undefined : folder}
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
