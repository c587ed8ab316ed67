ALTER TABLE "orders" ADD COLUMN "granted_cents_per_day" double precision;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "granted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prev_level" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prev_end_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prev_cents_per_day" double precision;