import type { LiveRecord } from "@agentfair/contracts";
import { DownOutlined, UpOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { LivePlayer } from "../../../components/live/live-player";
import { RemoteViewer } from "../../../components/live/remote-viewer";
import { TimedIframe } from "../../../components/live/timed-iframe";
import { remoteTicket } from "../api/play-info";

/** One live video, remote desktop or iframe panel (doc 2 §2). */
export function LivePanel({ record }: { record: LiveRecord }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const ticketPath = record.playInfo;
  const nextUrl = useCallback(() => remoteTicket(ticketPath), [ticketPath]);
  return (
    <section className="exec-live" data-container={record.playContainer} aria-label={t(`rpa.panels.${record.playContainer}`)}>
      <header className="exec-live-head">
        <span>
          {t(`rpa.panels.${record.playContainer}`)} · {record.rpaRobot.robotName}
        </span>
        <Button type="text" size="small" icon={open ? <UpOutlined /> : <DownOutlined />} onClick={() => setOpen((o) => !o)}>
          {open ? t("rpa.panels.close") : t(`rpa.panels.${record.playContainer}`)}
        </Button>
      </header>
      {open && (
        <div className="exec-live-body">
          {record.playContainer === "live" && (
            <LivePlayer flvUrl={record.playInfo} controls={record.playControls} id={`live-${record.rpaRobot.id}`} />
          )}
          {record.playContainer === "remote" && <RemoteViewer url={nextUrl} />}
          {record.playContainer === "iframe" && <TimedIframe src={record.playInfo} title={record.rpaRobot.robotName} />}
        </div>
      )}
    </section>
  );
}
