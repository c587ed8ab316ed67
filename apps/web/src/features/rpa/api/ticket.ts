import type { RpaTicket } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** A new single-use bridge address to watch a robot's screen. */
export const robotTicket = (robotId: string) =>
  http
    .post<RpaTicket>(`${API.agent}/api/rpa/robots/${robotId}/ticket`, undefined, { silent: true, keepOnNavigate: true })
    .then((t) => t.url);
