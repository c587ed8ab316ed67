CREATE TABLE "data_tables" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"introduction" text DEFAULT '' NOT NULL,
	"query_mode" text DEFAULT 'sql' NOT NULL,
	"fields" jsonb NOT NULL,
	"physical_name" text NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_tables_physical_name_unique" UNIQUE("physical_name")
);
--> statement-breakpoint
CREATE TABLE "rule_dirs" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rule_projects" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"field_config" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"dir_id" text,
	"tenant_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"rule_key" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"use_data" integer DEFAULT 1 NOT NULL,
	"form_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"params" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expression" text DEFAULT '' NOT NULL,
	"show_expression" text DEFAULT '' NOT NULL,
	"expression_cn" text DEFAULT '' NOT NULL,
	"ai_remark" text DEFAULT '' NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"inputs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_tables" ADD CONSTRAINT "data_tables_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_tables" ADD CONSTRAINT "data_tables_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_dirs" ADD CONSTRAINT "rule_dirs_project_id_rule_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."rule_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_projects" ADD CONSTRAINT "rule_projects_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_projects" ADD CONSTRAINT "rule_projects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_project_id_rule_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."rule_projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_dir_id_rule_dirs_id_fk" FOREIGN KEY ("dir_id") REFERENCES "public"."rule_dirs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_tables_tenant_name" ON "data_tables" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
CREATE INDEX "data_tables_owner" ON "data_tables" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "rule_dirs_project" ON "rule_dirs" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "rule_projects_owner" ON "rule_projects" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rules_project_key" ON "rules" USING btree ("project_id",lower("rule_key"));--> statement-breakpoint
CREATE INDEX "rules_dir" ON "rules" USING btree ("dir_id");--> statement-breakpoint
CREATE INDEX "rules_tenant" ON "rules" USING btree ("tenant_id");--> statement-breakpoint
-- Rows of the data tables: one table per data table, created and altered by modules/datatables.
CREATE SCHEMA IF NOT EXISTS "datatables";
