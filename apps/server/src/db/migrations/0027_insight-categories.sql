ALTER TABLE "insight_reports" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "insight_reports" ADD COLUMN "sources" jsonb DEFAULT '[]'::jsonb NOT NULL;