import { BulbOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMemory } from "./api/memory";

const MemoryDrawer = lazy(() => import("./memory-drawer").then((m) => ({ default: m.MemoryDrawer })));

/**
 * The caller's memory of an agent (its custom memory variables): what the agent remembers about
 * them, user-wide or for this session; each value can be changed or reset to its default. Shown
 * only for agents that have memory variables.
 */
export function MemoryButton(props: { agentId: string; release: boolean; sessionId: string | null }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // The drawer's code is asked for on the first open and kept mounted after, so it can animate closed.
  const [opened, setOpened] = useState(false);
  const memory = useMemory(props.agentId, props.release, props.sessionId);
  if (!memory.data?.list.length) return null;
  return (
    <>
      <Button
        icon={<BulbOutlined />}
        onClick={() => {
          setOpened(true);
          setOpen((v) => !v);
        }}
        data-testid="memory-button"
      >
        {t("chat.memory.title")}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <MemoryDrawer {...props} list={memory.data.list} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
