import type { NodeRun, WorkflowEvent, WorkflowRun } from "@agentfair/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { API } from "../../../lib/http";
import { getToken } from "../../../lib/storage";
import { fetchRun } from "./run";

export const runKey = (runId: string) => ["workflows", "run", runId] as const;

/** Applies one server-sent event to the run the cache holds. */
export function applyEvent(run: WorkflowRun | undefined, e: WorkflowEvent): WorkflowRun | undefined {
  if (e.type === "snapshot") return e.run;
  if (!run) return run;
  if (e.type === "node") {
    const i = run.nodes.findIndex((n) => n.id === e.node.id && n.scope === e.node.scope);
    const nodes = i < 0 ? [...run.nodes, e.node] : run.nodes.map((n, j) => (j === i ? e.node : n));
    return { ...run, nodes };
  }
  if (e.type === "delta") {
    // A piece of an answer node's text while its LLM writes it; the node's own event brings the whole.
    const i = run.nodes.findIndex((n) => n.id === e.nodeId && n.scope === e.scope);
    const prev = i < 0 ? null : run.nodes[i];
    if (prev && prev.status !== "RUNNING") return run;
    const text = `${(prev?.output as { text?: string } | null)?.text ?? ""}${e.text}`;
    const node: NodeRun = prev
      ? { ...prev, output: { text } }
      : {
          id: e.nodeId,
          type: "answer",
          title: e.nodeId,
          scope: e.scope,
          status: "RUNNING",
          input: null,
          output: { text },
          error: null,
          attempts: 1,
          tokens: 0,
          startedAt: null,
          finishedAt: null,
          durationMs: null,
        };
    return { ...run, nodes: i < 0 ? [...run.nodes, node] : run.nodes.map((n, j) => (j === i ? node : n)) };
  }
  return { ...run, status: e.status, outputs: e.outputs, error: e.error, waiting: e.waiting };
}

/** What the run's top-level answer nodes have written so far (the chat's reply). */
export const replyOf = (run: WorkflowRun) =>
  run.nodes
    .filter((n) => n.type === "answer" && !n.scope)
    .map((n) => (n.output as { text?: unknown } | null)?.text)
    .filter((x): x is string => typeof x === "string" && !!x)
    .join("");

/**
 * A run with live node states: the events stream (GET /workflow/runs/{runId}/events) while it runs, and a
 * one-second poll as the fallback when the stream is not available.
 */
export function useRun(runId: string | null, live = true) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: runKey(runId ?? ""),
    queryFn: () => fetchRun(runId as string),
    enabled: !!runId,
    refetchInterval: (q) => (live && (!q.state.data || q.state.data.status === "RUNNING") ? 1000 : false),
  });
  const running = query.data?.status === "RUNNING";
  useEffect(() => {
    if (!runId || !live || !running) return;
    const abort = new AbortController();
    (async () => {
      const token = getToken();
      const res = await fetch(`${API.builder}/workflow/runs/${runId}/events`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: abort.signal,
      });
      if (!res.ok || !res.body) return;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let at = buf.indexOf("\n\n");
        while (at >= 0) {
          const chunk = buf.slice(0, at);
          buf = buf.slice(at + 2);
          at = buf.indexOf("\n\n");
          const line = chunk.split("\n").find((l) => l.startsWith("data:"));
          if (!line) continue;
          try {
            const event = JSON.parse(line.slice(5)) as WorkflowEvent;
            client.setQueryData<WorkflowRun>(runKey(runId), (old) => applyEvent(old, event));
          } catch {
            // a malformed line: the poll still brings the state
          }
        }
      }
    })().catch(() => {
      // the stream is an accelerator; the poll carries on
    });
    return () => abort.abort();
  }, [runId, live, running, client]);
  return query;
}
