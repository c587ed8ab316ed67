import { Tooltip, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { type NodeType, PALETTE } from "../model/types";
import { NodeIcon } from "./node-meta";

/** The drag payload type of a palette item. */
export const DRAG_TYPE = "application/x-agentfair-node";

/** Node types to drag onto the canvas (a click adds one in the middle of the view). */
export function Palette({ onAdd }: { onAdd: (type: NodeType) => void }) {
  const { t } = useTranslation();
  return (
    <div data-testid="wf-palette">
      <Typography.Text strong>{t("workflows.editor.palette")}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: "2px 0 8px" }}>
        {t("workflows.editor.paletteHint")}
      </Typography.Paragraph>
      {PALETTE.map((type) => (
        <Tooltip key={type} title={t(`workflows.nodeHints.${type}`)} placement="right">
          <button
            type="button"
            draggable
            data-testid={`palette-${type}`}
            onDragStart={(e) => {
              e.dataTransfer.setData(DRAG_TYPE, type);
              e.dataTransfer.effectAllowed = "move";
            }}
            onClick={() => onAdd(type)}
            style={{
              display: "flex",
              alignItems: "center",
              gap: 8,
              width: "100%",
              padding: "6px 8px",
              marginBottom: 6,
              border: "1px solid #f0f0f0",
              borderRadius: 8,
              background: "#fff",
              cursor: "grab",
              fontSize: 13,
              textAlign: "left",
            }}
          >
            <NodeIcon type={type} size={22} />
            {t(`workflows.nodes.${type}`)}
          </button>
        </Tooltip>
      ))}
    </div>
  );
}
