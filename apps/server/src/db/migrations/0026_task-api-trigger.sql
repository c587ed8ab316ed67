ALTER TABLE "scheduled_tasks" ADD COLUMN "api_key_hash" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "api_key_prefix" text;--> statement-breakpoint
ALTER TABLE "scheduled_tasks" ADD COLUMN "api_requests_per_minute" integer DEFAULT 10 NOT NULL;