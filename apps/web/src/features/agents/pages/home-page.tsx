import { Card, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { MyTools } from "../../tools/components/my-tools";
import { MyKnowledge } from "../../knowledge/components/my-knowledge";
import { MyAgents } from "../components/my-agents";

/**
 * /home (doc 2 §2): My agents (types=1, default), My knowledge bases (types=2), My tools (types=3).
 * Switching replaces the URL with types = tab index + 1.
 */
export function HomePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const types = ["1", "2", "3"].includes(params.get("types") ?? "") ? params.get("types")! : "1";
  return (
    <div style={{ maxWidth: 1280, margin: "0 auto" }}>
      <Card>
        <Tabs
          activeKey={types}
          onChange={(k) => setParams({ types: k }, { replace: true })}
          items={[
            { key: "1", label: t("agents.home.myAgents"), children: <MyAgents /> },
            { key: "2", label: t("agents.home.myKnowledge"), children: <MyKnowledge /> },
            { key: "3", label: t("agents.home.myTools"), children: <MyTools /> },
          ]}
        />
      </Card>
    </div>
  );
}
