import { AudioOutlined, CloseOutlined, FileOutlined, LoadingOutlined, PaperClipOutlined } from "@ant-design/icons";
import { CHAT_FILE_MAX_BYTES, CHAT_INPUT_MAX_BYTES, CHAT_UPLOAD_EXTENSIONS, type ChatFileRef } from "@agentfair/contracts";
import { Sender } from "@ant-design/x";
import { XStyles } from "./x-styles";
import { App, Button, Space, Tooltip } from "antd";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { HttpError } from "../../lib/http";
import { speechToText } from "./api/speech-to-text";
import { uploadChatFile } from "./api/upload-file";
import type { ChatBus } from "./event-bus";
import { useVoice } from "./use-voice";

/** Clearing needs a session with messages: its confirm comes with them, not with a new chat. */
const ClearHistoryButton = lazy(() => import("./clear-history-button").then((m) => ({ default: m.ClearHistoryButton })));

interface PendingFile extends Partial<ChatFileRef> {
  key: string;
  name: string;
  uploading: boolean;
}

const HOLD_MS = 400;

/**
 * The chat input: textarea of 1 to 5 rows, file upload (doc 2 §5 types, 15 MB), send and stop,
 * clear history, and voice by holding the space key (16 kHz, ends after 5 s of silence).
 */
export function ChatInput(props: {
  pending: boolean;
  disabled?: boolean;
  bus: ChatBus;
  /** Resolves false when the send was called off (the text and files stay). */
  onSend: (query: string, files: ChatFileRef[], audioUrl?: string) => Promise<boolean> | undefined;
  onStop: () => void;
  onClear?: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [value, setValue] = useState("");
  const [files, setFiles] = useState<PendingFile[]>([]);
  const voice = useVoice();
  const [recognizing, setRecognizing] = useState(false);
  const hold = useRef<number | null>(null);
  const filesRef = useRef(files);
  filesRef.current = files;

  const submit = (text: string, audioUrl?: string) => {
    if (props.disabled) return;
    if (props.pending) return;
    if (filesRef.current.some((f) => f.uploading)) return void message.warning(t("chat.uploading"));
    const ready = filesRef.current.filter((f) => f.id).map((f) => ({ id: f.id!, name: f.name, type: f.type }));
    if (!text.trim() && !ready.length) return void message.warning(t("chat.needInput"));
    if (new TextEncoder().encode(text).length > CHAT_INPUT_MAX_BYTES) return void message.warning(t("chat.inputTooLong"));
    void Promise.resolve(props.onSend(text.trim(), ready, audioUrl)).then((sent) => {
      if (sent === false) return;
      setValue("");
      setFiles([]);
    });
  };
  const submitRef = useRef(submit);
  submitRef.current = submit;

  // Internal events that send into the chat.
  useEffect(() => {
    const offs = [
      props.bus.on("send-msg-button", (e) => submitRef.current(e.text)),
      props.bus.on("send-preset-questions", (e) => submitRef.current(e.text)),
      props.bus.on("question", (e) => submitRef.current(e.text)),
      props.bus.on("send-chat-button", (e) => (e.flag === false ? setValue(e.text) : submitRef.current(e.text))),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [props.bus]);

  const addFile = (file: File) => {
    const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
    if (!(CHAT_UPLOAD_EXTENSIONS as readonly string[]).includes(ext)) {
      message.error(t("chat.uploadTypes"));
      return;
    }
    if (file.size > CHAT_FILE_MAX_BYTES) {
      message.error(t("chat.uploadTooLarge"));
      return;
    }
    const key = `${Date.now()}-${file.name}`;
    setFiles((list) => [...list, { key, name: file.name, uploading: true }]);
    uploadChatFile(file)
      .then((up) => setFiles((list) => list.map((f) => (f.key === key ? { ...f, id: up.id, type: up.type, uploading: false } : f))))
      .catch(() => setFiles((list) => list.filter((f) => f.key !== key)));
  };
  // A plain file input rather than antd's Upload (15 KB gzipped on the chat's first load): the
  // files are checked and sent by addFile, no upload list is shown.
  const fileInput = useRef<HTMLInputElement>(null);
  const addFiles = (list: FileList | null) => {
    for (const file of Array.from(list ?? [])) addFile(file);
  };

  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  /** From the end of the hold until the recording ends (the microphone opening included). */
  const capturing = useRef(false);
  const record = async () => {
    if (!voice.supported) return void message.error(t("chat.noRecorder"));
    try {
      capturing.current = true;
      const wav = await voice.start().finally(() => {
        capturing.current = false;
      });
      if (!alive.current) return;
      if (!wav) return void message.warning(t("chat.noSpeech"));
      setRecognizing(true);
      const { text } = await speechToText(wav);
      if (!alive.current) return;
      if (!text.trim()) return void message.warning(t("chat.noSpeech"));
      submitRef.current(text, URL.createObjectURL(wav));
    } catch (err) {
      // No microphone at all: recording is not supported here. Refused or busy: it could not be opened.
      // Errors of the speech-to-text call were already shown by the http client.
      const name = (err as Error)?.name;
      if (name === "NotFoundError" || name === "OverconstrainedError" || name === "NotSupportedError") message.error(t("chat.noRecorder"));
      else if (!(err instanceof HttpError)) message.error(t("chat.micFailed"));
    } finally {
      if (alive.current) setRecognizing(false);
    }
  };

  // Hold the space key on an empty input to talk (a tap still types a space); release to finish.
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== " " || e.nativeEvent.isComposing) return;
    // The key's auto-repeat while held (or recording) must not type spaces.
    if (hold.current || capturing.current || voice.recording) return void e.preventDefault();
    if (e.repeat || value.trim() || props.pending || props.disabled || recognizing) return;
    hold.current = window.setTimeout(() => {
      hold.current = null;
      setValue("");
      void record();
    }, HOLD_MS);
  };
  useEffect(() => {
    const release = (e: KeyboardEvent | FocusEvent) => {
      if (e instanceof KeyboardEvent && e.key !== " ") return;
      if (hold.current) {
        clearTimeout(hold.current);
        hold.current = null;
      }
      voice.stop();
    };
    window.addEventListener("keyup", release);
    // A key released in another window never reaches this one.
    window.addEventListener("blur", release);
    return () => {
      window.removeEventListener("keyup", release);
      window.removeEventListener("blur", release);
      if (hold.current) clearTimeout(hold.current);
    };
  }, [voice.stop]);

  const header = files.length ? (
    <Space wrap size={6} style={{ padding: "8px 12px 0" }} data-testid="chat-pending-files">
      {files.map((f) => (
        <span key={f.key} className="chat-file-chip">
          {f.uploading ? <LoadingOutlined /> : <FileOutlined />} {f.name}
          <CloseOutlined
            style={{ marginLeft: 4, cursor: "pointer" }}
            onClick={() => setFiles((list) => list.filter((x) => x.key !== f.key))}
          />
        </span>
      ))}
    </Space>
  ) : undefined;

  return (
    <div className="chat-input">
      {(voice.recording || recognizing) && (
        <div className="chat-recording" role="status" data-heard={voice.heard || undefined}>
          <AudioOutlined /> {voice.recording ? t("chat.recording") : t("chat.recognizing")}
        </div>
      )}
      <XStyles>
        <Sender
          value={value}
          onChange={(v) => setValue(v)}
          onSubmit={(v) => submit(v)}
          onCancel={props.onStop}
          // A file alone may be sent: the send button waits for text or a file, not text only.
          suffix={(_, { components: { SendButton, LoadingButton } }) =>
            props.pending ? <LoadingButton /> : <SendButton disabled={!!props.disabled || (!value.trim() && !files.length)} />
          }
          loading={props.pending}
          disabled={props.disabled}
          autoSize={{ minRows: 1, maxRows: 5 }}
          placeholder={props.disabled ? t("chat.placeholderShare") : t("chat.placeholder")}
          onKeyDown={onKeyDown}
          header={header}
          prefix={
            <Space size={0}>
              <span
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault();
                  if (!props.disabled) addFiles(e.dataTransfer.files);
                }}
              >
                <input
                  ref={fileInput}
                  type="file"
                  hidden
                  multiple
                  disabled={props.disabled}
                  accept={CHAT_UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(",")}
                  onChange={(e) => {
                    addFiles(e.target.files);
                    // The same file can be chosen again.
                    e.target.value = "";
                  }}
                />
                <Tooltip title={t("chat.upload")}>
                  <Button
                    type="text"
                    icon={<PaperClipOutlined />}
                    aria-label={t("chat.upload")}
                    disabled={props.disabled}
                    onClick={() => fileInput.current?.click()}
                  />
                </Tooltip>
              </span>
              {props.onClear && (
                <Suspense fallback={null}>
                  <ClearHistoryButton onClear={props.onClear} disabled={!!(props.disabled || props.pending)} />
                </Suspense>
              )}
            </Space>
          }
        />
      </XStyles>
    </div>
  );
}
