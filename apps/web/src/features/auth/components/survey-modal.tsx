import { SURVEY_GOAL_COUNT, type SurveyOutcome } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Checkbox, Form, Input, Modal, Radio } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { API, http } from "../../../lib/http";
import { storage, surveyLater } from "../../../lib/storage";
import { firstLoginKey, useFirstLogin } from "../api/first-login";
import { validated } from "../../../lib/form";

type SurveyAnswer = { type?: 1 | 2; directionalTarget?: number[]; other?: string };
const OTHER = SURVEY_GOAL_COUNT; // the last of the 11 options

/**
 * The usage-intent questionnaire (doc 1 §5), shown at every sign-in until it is answered or
 * explicitly skipped; × puts it off until the next sign-in. The server hears only how it ended
 * (firstLoginDone), never the answers: submitting validates and logs.
 */
export function SurveyModal() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SurveyAnswer>();
  const [open, setOpen] = useState(false);
  const firstKey = firstLoginKey(storage.user()?.userId ?? "");
  const first = useFirstLogin();
  useEffect(() => {
    if (first.data?.isFirstLogin && !surveyLater.get()) setOpen(true);
  }, [first.data]);
  const goals = Form.useWatch("directionalTarget", form) ?? [];
  const end = async (survey: SurveyOutcome) => {
    await http.post(`${API.agent}/api/userinfo/firstLoginDone`, { survey });
    queryClient.setQueryData(firstKey, { isFirstLogin: false });
    setOpen(false);
  };

  return (
    <Modal
      open={open}
      title={t("auth.survey.title")}
      okText={t("common.submit")}
      // × (or Esc) only puts it off; the skip button ends it.
      onCancel={() => {
        surveyLater.set();
        setOpen(false);
      }}
      footer={(_, { OkBtn }) => (
        <>
          <Button onClick={() => end("skipped")}>{t("auth.survey.skip")}</Button>
          <OkBtn />
        </>
      )}
      onOk={async () => {
        // Invalid answers show their messages under the fields and keep the modal open.
        const answer = await validated(form);
        if (!answer) return;
        console.info("usage intent survey", answer);
        await end("answered");
      }}
      width={640}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark style={{ marginTop: 16 }}>
        <Form.Item name="type" label={t("auth.survey.identity")} rules={[{ required: true, message: t("auth.survey.identityRequired") }]}>
          <Radio.Group
            options={[
              { value: 1, label: t("auth.survey.user") },
              { value: 2, label: t("auth.survey.developer") },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="directionalTarget"
          label={t("auth.survey.goal")}
          rules={[{ required: true, type: "array", min: 1, message: t("auth.survey.goalRequired") }]}
        >
          <Checkbox.Group
            style={{ display: "grid", gridTemplateColumns: "repeat(3, 1fr)", gap: 8 }}
            options={Array.from({ length: SURVEY_GOAL_COUNT }, (_, i) => ({ value: i + 1, label: t(`auth.survey.goals.${i}`) }))}
          />
        </Form.Item>
        {goals.includes(OTHER) && (
          <Form.Item name="other" rules={[{ required: true, whitespace: true, message: t("auth.survey.otherRequired") }]}>
            <Input placeholder={t("auth.survey.otherRequired")} maxLength={200} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
