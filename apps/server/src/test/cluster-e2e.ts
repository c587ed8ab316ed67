// The cluster for the browser (e2e/specs/cluster.spec.ts): two platform processes serving the built
// web app behind nginx, on PostgreSQL and S3 (cluster.ts), with a test model, a member and a released
// agent. Prints one JSON line, the addresses and who signs in (or why no cluster can start here), and
// runs until its standard input closes. Env: WEB_DIST (the built web app), TEST_DATABASE_URL.
import path from "node:path";
import { clusterUnavailable, startCluster } from "./cluster.ts";
import { memberWithReleasedAgent, TEST_PASSWORD } from "./factories.ts";
import { startLlmServer } from "./llm-server.ts";

const unavailable = await clusterUnavailable();
if (unavailable) {
  console.log(JSON.stringify({ unavailable }));
  process.exit(0);
}
const llm = await startLlmServer();
const cluster = await startCluster({
  env: { WEB_DIST: path.resolve(process.env.WEB_DIST ?? ""), MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" },
});
const { user, agentId } = await memberWithReleasedAgent(cluster.admin, "集群助手");

console.log(JSON.stringify({ url: cluster.url, upstreams: cluster.upstreams, username: user.username, password: TEST_PASSWORD, agentId }));
const stop = async () => {
  await cluster.close();
  await llm.close();
  process.exit(0);
};
process.stdin.on("end", stop);
process.stdin.resume();
process.on("SIGTERM", stop);
