import { App as AntApp, Input, Modal } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { HttpError } from "../../../lib/http";
import { redeemBenefitCode } from "../api/use-code";

/** Benefit code: success shows the message and reloads; failure shows the server msg and clears the input. */
export function BenefitDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!code.trim()) {
      message.warning(t("billing.benefitEmpty"));
      return;
    }
    setBusy(true);
    try {
      await redeemBenefitCode(code.trim());
      message.success(t("billing.benefitSuccess"));
      window.setTimeout(() => window.location.reload(), 800);
    } catch (err) {
      message.error(err instanceof HttpError ? err.message : String(err));
      setCode("");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t("billing.benefitTitle")} onCancel={onClose} onOk={submit} confirmLoading={busy} destroyOnHidden>
      <Input
        data-testid="benefit-input"
        value={code}
        maxLength={64}
        onChange={(e) => setCode(e.target.value)}
        onPressEnter={submit}
        placeholder={t("billing.benefitPlaceholder")}
      />
    </Modal>
  );
}
