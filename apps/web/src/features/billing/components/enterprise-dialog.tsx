import { Image, Modal, Space } from "antd";
import { useTranslation } from "react-i18next";

/** Private deployment contact: images only (doc 1 §2). */
export function EnterpriseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Modal open={open} title={t("billing.privateDeployment")} onCancel={onClose} footer={null} width={520}>
      <Space size="large" style={{ width: "100%", justifyContent: "center" }}>
        <Image
          src={i18n.language === "en" ? "/billing/contact-card-en.svg" : "/billing/contact-card.svg"}
          alt=""
          width={220}
          preview={false}
        />
        <Image src="/billing/contact-qr.svg" alt="" width={200} preview={false} />
      </Space>
    </Modal>
  );
}
