import type { WorkflowGraph } from "@agentfair/contracts";
import { graphOf } from "./engine-fixture.ts";

export const CRASH_CHAIN = ["n1", "n2", "n3", "n4", "n5", "n6"];

/** start → n1 → … → n6 → end, each n a slow step returning a fresh nonce (a second run of it would show). */
export function crashGraph(): WorkflowGraph {
  const nodes: Record<string, { type: string; data?: Record<string, unknown> }> = { start: { type: "start" } };
  for (const n of CRASH_CHAIN) nodes[n] = { type: "code", data: { code: "slow" } };
  nodes.end = { type: "end", data: { outputs: Object.fromEntries(CRASH_CHAIN.map((n) => [n, `{{${n}.nonce}}`])) } };
  const chain = ["start", ...CRASH_CHAIN, "end"];
  return graphOf(
    nodes,
    chain.slice(1).map((n, i) => `${chain[i]}>${n}`),
  );
}
