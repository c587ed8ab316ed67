CREATE TABLE "chat_tuning" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"session_id" text NOT NULL,
	"message_id" text NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"corrected_answer" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"knowledge_id" text,
	"pushed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "feedback" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "robot_id" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "robot_recipient" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "mail_host" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "mail_port" integer;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "mail_protocol" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "mail_account" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "mail_password_enc" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "mail_uid_validity" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "mail_last_uid" integer;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "mail_error" text;--> statement-breakpoint
ALTER TABLE "task_runs" ADD COLUMN "input" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_tuning" ADD CONSTRAINT "chat_tuning_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_tuning" ADD CONSTRAINT "chat_tuning_session_id_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_tuning" ADD CONSTRAINT "chat_tuning_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_tuning_message" ON "chat_tuning" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "chat_tuning_agent" ON "chat_tuning" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_sessions_agent_created" ON "chat_sessions" USING btree ("agent_id","created_at");