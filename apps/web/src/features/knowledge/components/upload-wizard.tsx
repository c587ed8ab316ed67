import { InboxOutlined } from "@ant-design/icons";
import { KNOWLEDGE_FILE_EXTENSIONS, KNOWLEDGE_FILE_MAX_BYTES, type SegmentOptionsInput } from "@agentfair/contracts";
import { Alert, App, Button, Empty, Form, Modal, Result, Select, Space, Spin, Steps, Upload } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Adjustments, NO_ADJUSTMENTS, toRequest } from "../adjust";
import { commitFile } from "../api/commit-file";
import { type PreviewSegment, previewSegments } from "../api/preview";
import { uploadKnowledgeFile } from "../api/upload-file";
import { HttpError } from "../../../lib/http";
import { SegmentAdjustList } from "./segment-adjust-list";
import { DEFAULT_OPTIONS, type OptionsFormValues, SegmentOptionsForm, toSegmentOptions } from "./segment-options-form";
import { SegmentPreviewList } from "./segment-preview-list";

export interface WizardFile {
  fileId: string;
  name: string;
}

const ACCEPT = [...KNOWLEDGE_FILE_EXTENSIONS, "zip"].map((e) => `.${e}`).join(",");

/**
 * The knowledge-file upload wizard (doc 2 §2 dictionary areas): upload → segmentation and
 * cleaning (options and the preview) → segment adjustment (edit, merge, delete previewed segments:
 * the list shown is what is stored) → finish, which commits every file with those options and its
 * adjustments. Opened on stored files it starts at step 2.
 */
export function UploadWizard({
  baseId,
  open,
  files: initialFiles,
  folderId,
  onClose,
  onCommitted,
}: {
  baseId: string;
  open: boolean;
  /** Files already uploaded but not segmented: skip the upload step. */
  files?: WizardFile[];
  /** Uploads go into this folder. */
  folderId?: string;
  onClose: () => void;
  onCommitted: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<OptionsFormValues>();
  const [step, setStep] = useState(0);
  const [files, setFiles] = useState<WizardFile[]>([]);
  const [uploading, setUploading] = useState(0);
  const [current, setCurrent] = useState<string | null>(null);
  // Previews per file, for the options they were made with: stale ones are made again.
  const [previews, setPreviews] = useState<Record<string, { key: string; segments: PreviewSegment[] }>>({});
  // Adjustments per file, made in step 3 on its current preview; a new preview starts them over.
  const [adjustments, setAdjustments] = useState<Record<string, Adjustments>>({});
  const [busy, setBusy] = useState(false);
  const [committed, setCommitted] = useState(false);
  // Why a file's preview failed (it cannot be read, no table for the table method…): kept in place, as the toast fades.
  const [previewErrors, setPreviewErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!open) return;
    const start = initialFiles ?? [];
    setFiles(start);
    setCurrent(start[0]?.fileId ?? null);
    setStep(start.length ? 1 : 0);
    setPreviews({});
    setPreviewErrors({});
    setAdjustments({});
    setCommitted(false);
    form.setFieldsValue(DEFAULT_OPTIONS);
  }, [open, initialFiles, form]);

  const options = async (): Promise<SegmentOptionsInput> => toSegmentOptions(await form.validateFields());

  const preview = async (fileId: string, opts: SegmentOptionsInput) => {
    const key = JSON.stringify(opts);
    if (previews[fileId]?.key === key) return;
    const { segments } = await previewSegments(baseId, fileId, opts).catch((e: unknown) => {
      if (e instanceof HttpError) setPreviewErrors((errors) => ({ ...errors, [fileId]: e.message }));
      throw e;
    });
    setPreviewErrors(({ [fileId]: _, ...others }) => others);
    setPreviews((p) => ({ ...p, [fileId]: { key, segments } }));
    setAdjustments((a) => ({ ...a, [fileId]: NO_ADJUSTMENTS }));
  };
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // The http client has shown the message; validation errors show on the form.
    } finally {
      setBusy(false);
    }
  };
  const previewCurrent = () =>
    run(async () => {
      if (current) await preview(current, await options());
    });
  // Segment adjustment shows every file's segments for the options chosen.
  const toAdjust = () =>
    run(async () => {
      const opts = await options();
      for (const f of files) await preview(f.fileId, opts);
      setStep(2);
    });
  const finish = () =>
    run(async () => {
      const opts = await options();
      for (const f of files) await commitFile(baseId, f.fileId, { ...opts, adjust: toRequest(adjustments[f.fileId] ?? NO_ADJUSTMENTS) });
      setCommitted(true);
      setStep(3);
      message.success(t("knowledge.wizard.committed"));
      onCommitted();
    });

  const upload = async (file: File) => {
    setUploading((n) => n + 1);
    try {
      const res = await uploadKnowledgeFile(baseId, file, folderId);
      setFiles((fs) => [...fs, ...res.files]);
      setCurrent((c) => c ?? res.files[0]?.fileId ?? null);
    } finally {
      setUploading((n) => n - 1);
    }
  };

  const currentPreview = current ? previews[current] : undefined;
  const fileSelect = files.length > 1 && (
    <Select
      value={current}
      onChange={setCurrent}
      style={{ minWidth: 240 }}
      options={files.map((f) => ({ value: f.fileId, label: f.name }))}
      data-testid="preview-file"
    />
  );

  const footer = (
    <Space>
      {step > 0 && step < 3 && !(step === 1 && initialFiles?.length) && (
        <Button onClick={() => setStep(step - 1)} disabled={busy}>
          {t("knowledge.wizard.prev")}
        </Button>
      )}
      {step === 0 && (
        <Button type="primary" disabled={!files.length || uploading > 0} onClick={() => setStep(1)} data-testid="wizard-next">
          {t("knowledge.wizard.next")}
        </Button>
      )}
      {step === 1 && (
        <Button type="primary" loading={busy} onClick={toAdjust} data-testid="wizard-next">
          {t("knowledge.wizard.next")}
        </Button>
      )}
      {step === 2 && (
        <Button type="primary" onClick={() => setStep(3)} data-testid="wizard-next">
          {t("knowledge.wizard.next")}
        </Button>
      )}
      {step === 3 &&
        (committed ? (
          <Button type="primary" onClick={onClose} data-testid="wizard-close">
            {t("knowledge.wizard.close")}
          </Button>
        ) : (
          <Button type="primary" loading={busy} onClick={finish} data-testid="wizard-finish">
            {t("knowledge.wizard.finish")}
          </Button>
        ))}
    </Space>
  );

  return (
    <Modal
      open={open}
      title={t("knowledge.wizard.title")}
      width={920}
      onCancel={onClose}
      footer={footer}
      destroyOnHidden
      maskClosable={false}
    >
      <Steps
        current={step}
        size="small"
        style={{ marginBottom: 24 }}
        items={[
          { title: t("knowledge.wizard.steps.upload") },
          { title: t("knowledge.wizard.steps.segment") },
          { title: t("knowledge.wizard.steps.adjust") },
          { title: t("knowledge.wizard.steps.finish") },
        ]}
      />
      <div style={{ display: step === 0 ? "block" : "none" }}>
        <Upload.Dragger
          multiple
          accept={ACCEPT}
          showUploadList
          beforeUpload={(file) => {
            const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
            if (!ACCEPT.split(",").includes(`.${ext}`)) {
              message.error(t("knowledge.wizard.unsupported"));
              return Upload.LIST_IGNORE;
            }
            if (file.size > KNOWLEDGE_FILE_MAX_BYTES) {
              message.error(t("knowledge.wizard.tooLarge"));
              return Upload.LIST_IGNORE;
            }
            return true;
          }}
          customRequest={({ file, onSuccess, onError }) => {
            upload(file as File).then(
              () => onSuccess?.(null),
              (e) => onError?.(e as Error),
            );
          }}
          data-testid="wizard-upload"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t("knowledge.wizard.dragHint")}</p>
          <p className="ant-upload-hint">{t("knowledge.wizard.formats")}</p>
        </Upload.Dragger>
        {files.length > 0 && (
          <Alert style={{ marginTop: 12 }} type="success" showIcon message={t("knowledge.wizard.uploaded", { count: files.length })} />
        )}
      </div>
      {/* The form stays mounted so steps 3 and 4 send the options chosen in step 2. */}
      <Form form={form} layout="vertical" initialValues={DEFAULT_OPTIONS} style={{ display: step === 1 ? "block" : "none" }}>
        <SegmentOptionsForm />
        <Space style={{ marginBottom: 12 }} wrap>
          {fileSelect}
          <Button onClick={previewCurrent} loading={busy} disabled={!current} data-testid="preview-segments">
            {t("knowledge.wizard.preview")}
          </Button>
        </Space>
        <Spin spinning={busy}>
          {current && previewErrors[current] ? (
            <Alert type="error" showIcon message={previewErrors[current]} data-testid="preview-error" />
          ) : currentPreview ? (
            <SegmentPreviewList segments={currentPreview.segments} />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("knowledge.wizard.previewEmpty")} />
          )}
        </Spin>
      </Form>
      {step === 2 && (
        <div data-testid="wizard-adjust">
          <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t("knowledge.wizard.adjustHint")} />
          {fileSelect && <div style={{ marginBottom: 12 }}>{fileSelect}</div>}
          {current && currentPreview && (
            <SegmentAdjustList
              key={`${current}:${currentPreview.key}`}
              segments={currentPreview.segments}
              adjustments={adjustments[current] ?? NO_ADJUSTMENTS}
              onChange={(a) => setAdjustments((all) => ({ ...all, [current]: a }))}
            />
          )}
        </div>
      )}
      {step === 3 && (
        <div data-testid="wizard-finish-step">
          <Result
            status={committed ? "success" : "info"}
            title={committed ? t("knowledge.wizard.committed") : t("knowledge.wizard.steps.finish")}
            subTitle={committed ? t("knowledge.wizard.finishHint") : files.map((f) => f.name).join(t("knowledge.wizard.fileSeparator"))}
          />
        </div>
      )}
    </Modal>
  );
}
