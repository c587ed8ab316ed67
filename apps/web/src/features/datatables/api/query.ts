import type { DataQueryResult } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/datatable/query: one read-only SELECT through the server's guard. */
export const runQuery = (sql: string) => http.post<DataQueryResult>(`${API.builder}/datatable/query`, { sql });
