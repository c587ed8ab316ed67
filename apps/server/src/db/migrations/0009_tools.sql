CREATE TABLE "plugins" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"plugin_name" text NOT NULL,
	"plugin_description" text DEFAULT '' NOT NULL,
	"plugin_icon" text DEFAULT '1' NOT NULL,
	"plugin_icon_background" text DEFAULT '#e8f3ff' NOT NULL,
	"plugin_type" text NOT NULL,
	"plugin_status" text DEFAULT 'C00_Unreleased' NOT NULL,
	"plugin_callable_name" text NOT NULL,
	"plugin_tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"plugin_kind" text DEFAULT 'BACKEND' NOT NULL,
	"standard" boolean DEFAULT false NOT NULL,
	"definition" jsonb NOT NULL,
	"auth_secret_enc" text,
	"tested_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plugins" ADD CONSTRAINT "plugins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugins" ADD CONSTRAINT "plugins_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plugins_owner" ON "plugins" USING btree ("owner_id","last_modified_at");--> statement-breakpoint
CREATE INDEX "plugins_tenant" ON "plugins" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plugins_owner_callable" ON "plugins" USING btree ("owner_id",lower("plugin_callable_name"));