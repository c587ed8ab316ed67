import { GlobalOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Dropdown } from "antd";
import { useTranslation } from "react-i18next";
import { storage } from "../lib/storage";

/** zh / en; the choice is kept in local config (doc 1 §9). */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const choose = async (lang: "zh" | "en") => {
    storage.setLang(lang);
    await i18n.changeLanguage(lang);
    // The server answers in the asked language (plan names, order titles, messages): ask again.
    await queryClient.invalidateQueries();
  };
  return (
    <Dropdown
      menu={{
        selectedKeys: [i18n.language],
        items: [
          { key: "zh", label: "中文" },
          { key: "en", label: "English" },
        ],
        onClick: ({ key }) => choose(key as "zh" | "en"),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t("common.language")} data-testid="language-switch">
        {i18n.language === "en" ? "English" : "中文"}
      </Button>
    </Dropdown>
  );
}
