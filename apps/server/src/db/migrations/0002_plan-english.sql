ALTER TABLE "plan_templates" ADD COLUMN "name_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_templates" ADD COLUMN "description_en" text DEFAULT '' NOT NULL;