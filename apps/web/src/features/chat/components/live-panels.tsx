import { lazy, Suspense } from "react";
import { loadAreas } from "../../../i18n";
import { usePlayInfo } from "../api/play-info";

/** The panel, its players and texts load only for a session whose reply carries one. */
const LivePanel = lazy(() => Promise.all([import("./live-panel"), loadAreas("rpa")]).then(([m]) => ({ default: m.LivePanel })));

/** The execute page's live video, remote desktop or iframe panel, when the session's reply carries one (doc 2 §2). */
export function LivePanels({ sessionId }: { sessionId: string | null }) {
  const info = usePlayInfo(sessionId);
  const record = info.data;
  if (!sessionId || !record) return null;
  // A new robot task (another robot or panel) starts a new panel; the signed address alone changing does not.
  return (
    <Suspense fallback={null}>
      <LivePanel key={`${sessionId}:${record.rpaRobot.id}:${record.playContainer}`} record={record} />
    </Suspense>
  );
}
