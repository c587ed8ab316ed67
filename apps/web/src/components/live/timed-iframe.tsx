import { IFRAME_REFRESH_MS } from "@agentfair/contracts";
import { useEffect, useState } from "react";
import "./live.css";

/** An iframe panel reloaded every 5 s (doc 2 §9: timed-refresh iframe). */
export function TimedIframe({ src, title, intervalMs = IFRAME_REFRESH_MS }: { src: string; title: string; intervalMs?: number }) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return <iframe key={tick} className="timed-iframe" src={src} title={title} sandbox="allow-scripts allow-same-origin" />;
}
