import { EyeOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Modal, Select, Space, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { createBus, type ChatBusEvents } from "../../../components/chat/event-bus";
import { bindCard, cardBindingKey, useCardBinding } from "../api/card-binding";
import { cardsKey, useCards } from "../api/cards";
import { valueAt } from "@agentfair/contracts";
import { CardTemplateView } from "./card-template";

/**
 * The plugin editor's card selector: which of the caller's cards shows this tool's result in a
 * reply. Saved at once (the binding is the cards module's, not part of the plugin's definition).
 */
export function CardBindingSelect({ pluginId, disabled }: { pluginId: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const cards = useCards();
  const binding = useCardBinding(pluginId);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState(false);
  const bus = useMemo(() => createBus<ChatBusEvents>(), []);
  const cardId = binding.data?.cardId ?? null;
  const card = cards.data?.find((c) => c.id === cardId);

  const change = async (next: string | null) => {
    setBusy(true);
    try {
      queryClient.setQueryData(cardBindingKey(pluginId), await bindCard(pluginId, next));
      await queryClient.invalidateQueries({ queryKey: cardsKey });
      message.success(t(next ? "cards.binding.saved" : "cards.binding.cleared"));
    } catch {
      // the http client has shown the server's message
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title={t("cards.binding.title")} data-testid="card-binding">
      <Space.Compact style={{ width: "100%" }}>
        <Select
          style={{ width: "100%" }}
          loading={cards.isLoading || binding.isLoading || busy}
          disabled={disabled || busy}
          value={cardId ?? ""}
          onChange={(v: string) => change(v || null)}
          options={[
            { value: "", label: t("cards.binding.none") },
            ...(cards.data ?? []).map((c) => ({ value: c.id, label: `${c.name} · ${t(`cards.types.${c.config.type}`)}` })),
          ]}
          data-testid="card-binding-select"
        />
        <Button
          icon={<EyeOutlined />}
          onClick={() => (card ? setPreview(true) : message.warning(t("cards.editor.bindFirst")))}
          data-testid="card-binding-preview"
        >
          {t("cards.binding.preview")}
        </Button>
      </Space.Compact>
      <Typography.Paragraph type="secondary" style={{ margin: "6px 0 0", fontSize: 12 }}>
        {t("cards.binding.hint")} · <Link to={card ? `/cards?id=${card.id}` : "/cards"}>{t("cards.binding.manage")}</Link>
      </Typography.Paragraph>
      <Modal open={preview && !!card} onCancel={() => setPreview(false)} footer={null} title={card?.name} width={420}>
        {card && <CardTemplateView config={card.config} data={valueAt(card.sample, card.config.dataPath)} mode="render" bus={bus} />}
      </Modal>
    </Card>
  );
}
