CREATE TABLE "agent_market_counts" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"listed" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "agents_owner";--> statement-breakpoint
CREATE INDEX "agent_applies_agent" ON "agent_applies" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "agents_mine" ON "agents" USING btree ("owner_id","last_modified_at" DESC NULLS FIRST,"id") WHERE "agents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "agents_market" ON "agents" USING btree ("use_count" DESC NULLS FIRST,"last_modified_at" DESC NULLS FIRST,"id") WHERE "agents"."launch_version" is not null and "agents"."launch_version_disabled" = false and "agents"."deleted_at" is null;