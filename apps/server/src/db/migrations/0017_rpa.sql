CREATE TABLE "rpa_robots" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"robot_name" text NOT NULL,
	"robot_type" text DEFAULT 'desktop' NOT NULL,
	"vnc_host" text DEFAULT '' NOT NULL,
	"vnc_port" integer DEFAULT 5900 NOT NULL,
	"vnc_password_enc" text,
	"stream_url" text DEFAULT '' NOT NULL,
	"live_policy" integer DEFAULT 0 NOT NULL,
	"allow_private" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rpa_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"session_id" text NOT NULL,
	"robot_id" text NOT NULL,
	"play_container" text NOT NULL,
	"iframe_url" text DEFAULT '' NOT NULL,
	"play_controls" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rpa_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"robot_id" text NOT NULL,
	"session_pair_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rpa_robots" ADD CONSTRAINT "rpa_robots_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rpa_robots" ADD CONSTRAINT "rpa_robots_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rpa_tasks" ADD CONSTRAINT "rpa_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rpa_tasks" ADD CONSTRAINT "rpa_tasks_robot_id_rpa_robots_id_fk" FOREIGN KEY ("robot_id") REFERENCES "public"."rpa_robots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rpa_robots_tenant" ON "rpa_robots" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "rpa_tasks_session" ON "rpa_tasks" USING btree ("session_id","created_at");