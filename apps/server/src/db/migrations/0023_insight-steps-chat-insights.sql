CREATE TABLE "chat_insights" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"session_id" text NOT NULL,
	"user_id" text NOT NULL,
	"model_id" text,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"lang" text DEFAULT 'zh' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"analysis" jsonb,
	"message_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "insight_step" jsonb;--> statement-breakpoint
ALTER TABLE "chat_insights" ADD CONSTRAINT "chat_insights_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_insights" ADD CONSTRAINT "chat_insights_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_insights" ADD CONSTRAINT "chat_insights_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_insights" ADD CONSTRAINT "chat_insights_session_id_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_insights_session_idx" ON "chat_insights" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "chat_insights_owner_idx" ON "chat_insights" USING btree ("owner_id","agent_id","updated_at");