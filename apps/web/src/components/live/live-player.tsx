import { ReloadOutlined } from "@ant-design/icons";
import { LIVE_PLAYER_TIMEOUT_MS } from "@agentfair/contracts";
import { Button } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import "./live.css";

/** The timeout when none is given: 60 s, or what a test set on the page (`window.__liveTimeoutMs`). */
const defaultTimeout = () => {
  const set = typeof window !== "undefined" ? (window as { __liveTimeoutMs?: unknown }).__liveTimeoutMs : undefined;
  return typeof set === "number" && set > 0 ? set : LIVE_PLAYER_TIMEOUT_MS;
};

export type LiveState = "loading" | "playing" | "error" | "unsupported";

/** Media Source Extensions: what mpegts.js needs to play FLV in a browser. */
const mseAvailable = () =>
  typeof window !== "undefined" &&
  (typeof (window as { MediaSource?: unknown }).MediaSource === "function" ||
    typeof (window as { ManagedMediaSource?: unknown }).ManagedMediaSource === "function");

/**
 * The live video player (doc 2 §2, §4): mpegts.js pulling an FLV stream. The first media-info
 * event counts as playing; no media info within the timeout (60 s), a player error, the end of a
 * live stream, or a picture that stands still as long shows the pull error; the refresh control destroys and re-creates the player;
 * leaving the page destroys it.
 */
export function LivePlayer({
  flvUrl,
  controls = true,
  id,
  timeoutMs = defaultTimeout(),
  onState,
}: {
  flvUrl: string;
  controls?: boolean;
  id?: string;
  timeoutMs?: number;
  onState?: (state: LiveState) => void;
}) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<LiveState>(() => (mseAvailable() ? "loading" : "unsupported"));
  const [generation, setGeneration] = useState(0);
  const onStateRef = useRef(onState);
  onStateRef.current = onState;
  // A signed address changes its signature over time: the player follows the stream, not the
  // signature, and a refresh opens the newest address.
  const latestUrl = useRef(flvUrl);
  latestUrl.current = flvUrl;
  const stream = flvUrl.split("?")[0];

  useEffect(() => {
    const report = (s: LiveState) => {
      setState(s);
      onStateRef.current?.(s);
    };
    if (!mseAvailable()) return report("unsupported");
    let disposed = false;
    let player: { destroy(): void } | null = null;
    let playing = false;
    report("loading");
    const fail = () => {
      if (disposed) return;
      clearTimeout(timer);
      clearInterval(watchdog);
      report("error");
      player?.destroy();
      player = null;
    };
    const timer = setTimeout(() => {
      if (!playing) fail();
    }, timeoutMs);
    // Once playing, a stream that stops sending (the media server may hold the connection open
    // waiting for its publisher) shows the same error when the picture stands still as long.
    let lastTime = -1;
    let lastMove = Date.now();
    const watchdog = setInterval(() => {
      if (!playing || !video.current) return;
      const now = video.current.currentTime;
      if (now !== lastTime) {
        lastTime = now;
        lastMove = Date.now();
      } else if (Date.now() - lastMove >= timeoutMs) fail();
    }, 1000);
    void import("mpegts.js").then(({ default: mpegts }) => {
      if (disposed || !video.current) return;
      if (!mpegts.getFeatureList().mseLivePlayback) return report("unsupported");
      const p = mpegts.createPlayer(
        { type: "flv", isLive: true, url: new URL(latestUrl.current, window.location.href).toString() },
        { enableWorker: false, lazyLoad: false },
      );
      player = p;
      p.on(mpegts.Events.MEDIA_INFO, () => {
        if (playing || disposed) return;
        playing = true;
        clearTimeout(timer);
        report("playing");
      });
      p.on(mpegts.Events.ERROR, fail);
      // A live stream does not end: its end is the stream stopping.
      p.on(mpegts.Events.LOADING_COMPLETE, fail);
      p.attachMediaElement(video.current);
      p.load();
      const started = p.play();
      if (started) started.catch(() => undefined);
    }, fail);
    return () => {
      disposed = true;
      clearTimeout(timer);
      clearInterval(watchdog);
      player?.destroy();
    };
  }, [stream, timeoutMs, generation]);

  return (
    <div className="live-player" data-state={state} id={id}>
      <video ref={video} controls={controls} muted autoPlay playsInline />
      {state !== "unsupported" && (
        <Button
          className="live-player-refresh"
          size="small"
          icon={<ReloadOutlined />}
          aria-label={t("rpa.live.refresh")}
          onClick={() => setGeneration((g) => g + 1)}
        >
          {t("rpa.live.refresh")}
        </Button>
      )}
      {(state === "error" || state === "unsupported") && (
        <div className="live-player-error" role="alert">
          {state === "error" ? t("rpa.live.pullError") : t("rpa.live.unsupported")}
        </div>
      )}
    </div>
  );
}
