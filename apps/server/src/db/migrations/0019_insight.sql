CREATE TABLE "insight_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"agent_name" text DEFAULT '' NOT NULL,
	"session_id" text,
	"message_id" text,
	"model_id" text,
	"question" text NOT NULL,
	"lang" text DEFAULT 'zh' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"plan" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"blocks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"share_token" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "insight_reports" ADD CONSTRAINT "insight_reports_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_reports" ADD CONSTRAINT "insight_reports_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insight_reports" ADD CONSTRAINT "insight_reports_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insight_reports_owner_idx" ON "insight_reports" USING btree ("owner_id","agent_id");--> statement-breakpoint
CREATE INDEX "insight_reports_session_idx" ON "insight_reports" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "insight_reports_share_idx" ON "insight_reports" USING btree ("share_token");