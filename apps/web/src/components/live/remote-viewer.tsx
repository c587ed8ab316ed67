import { FullscreenExitOutlined, FullscreenOutlined } from "@ant-design/icons";
import { isRemoteLevel, REMOTE_DEFAULT_COMPRESSION, REMOTE_DEFAULT_QUALITY } from "@agentfair/contracts";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import "./live.css";

/** What the viewer logs on a failed link before it reconnects (doc 2 §8). */
export const RECONNECT_LOG = "远程桌面连接失败，正在重新连接...";
/** Between failed tries: a link that worked reconnects at once; a target that is down is not hammered. */
const RETRY_AFTER_FAILURE_MS = 2_000;

export type RemoteState = "connecting" | "connected" | "reconnecting";

/** A level the viewer accepts (integers 0 to 9, doc 2 §5); anything else is logged and ignored. */
export function levelOr(value: unknown, fallback: number, name: string) {
  if (value === undefined) return fallback;
  if (isRemoteLevel(value)) return value;
  console.warn(`${name} must be an integer between 0 and 9; ignored`, value);
  return fallback;
}

/** A relative websocket path becomes an address on this page's host. */
function wsAddress(url: string) {
  if (/^wss?:\/\//i.test(url)) return url;
  return `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}${url}`;
}

/**
 * The remote-screen viewer (doc 2 §2): noVNC, view-only, scaled to fit on #f9fafb, a fullscreen
 * toggle at the bottom right that Escape clears. `url` is the websocket address, or a function
 * that fetches a new one (a single-use ticket) for every connection; any disconnect, clean or not,
 * connects again with a new one.
 */
export function RemoteViewer({
  url,
  qualityLevel,
  compressionLevel,
  onState,
}: {
  url: string | (() => Promise<string>);
  qualityLevel?: unknown;
  compressionLevel?: unknown;
  onState?: (state: RemoteState) => void;
}) {
  const { t } = useTranslation();
  const screen = useRef<HTMLDivElement>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const [state, setState] = useState<RemoteState>("connecting");
  const urlRef = useRef(url);
  urlRef.current = url;
  const onStateRef = useRef(onState);
  onStateRef.current = onState;
  const quality = levelOr(qualityLevel, REMOTE_DEFAULT_QUALITY, "qualityLevel");
  const compression = levelOr(compressionLevel, REMOTE_DEFAULT_COMPRESSION, "compressionLevel");

  useEffect(() => {
    let disposed = false;
    let rfb: { disconnect(): void } | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const report = (s: RemoteState) => {
      if (disposed) return;
      setState(s);
      onStateRef.current?.(s);
    };

    const connect = async () => {
      if (disposed || !screen.current) return;
      let connected = false;
      const again = () => {
        if (disposed) return;
        if (!connected) failures++;
        console.warn(RECONNECT_LOG);
        report("reconnecting");
        // A session that was up reconnects at once; repeated failures wait a moment between tries.
        retry = setTimeout(() => void connect(), connected || failures <= 1 ? 0 : RETRY_AFTER_FAILURE_MS);
      };
      try {
        const { default: RFB } = await import("@novnc/novnc");
        const target = typeof urlRef.current === "string" ? urlRef.current : await urlRef.current();
        if (disposed || !screen.current) return;
        screen.current.replaceChildren();
        const client = new RFB(screen.current, wsAddress(target), { shared: true });
        client.viewOnly = true;
        client.focusOnClick = false;
        client.scaleViewport = true;
        client.clipViewport = false;
        client.resizeSession = false;
        client.background = "#f9fafb";
        client.qualityLevel = quality;
        client.compressionLevel = compression;
        client.addEventListener("connect", () => {
          connected = true;
          failures = 0;
          report("connected");
        });
        client.addEventListener("disconnect", () => {
          if (rfb === client) rfb = null;
          again();
        });
        rfb = client;
      } catch {
        again();
      }
    };
    void connect();
    return () => {
      disposed = true;
      clearTimeout(retry);
      rfb?.disconnect();
    };
  }, [quality, compression]);

  useEffect(() => {
    if (!fullscreen) return;
    // Captured first, so the Escape that leaves fullscreen does not also close a dialog around the viewer.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.stopPropagation();
      setFullscreen(false);
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [fullscreen]);

  return (
    <div className={`remote-viewer${fullscreen ? " is-fullscreen" : ""}`} data-state={state} data-fullscreen={fullscreen}>
      <div className="remote-viewer-screen" ref={screen} />
      {state !== "connected" && (
        <div className="remote-viewer-notice" role="status">
          {state === "connecting" ? t("rpa.remote.connecting") : t("rpa.remote.reconnecting")}
        </div>
      )}
      <button
        type="button"
        className="remote-viewer-toggle"
        aria-label={fullscreen ? t("rpa.remote.exitFullscreen") : t("rpa.remote.fullscreen")}
        title={fullscreen ? t("rpa.remote.exitFullscreen") : t("rpa.remote.fullscreen")}
        onClick={() => setFullscreen((f) => !f)}
      >
        {fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      </button>
    </div>
  );
}
