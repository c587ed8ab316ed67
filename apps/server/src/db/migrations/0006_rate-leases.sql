CREATE TABLE "rate_leases" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_leases_key_idx" ON "rate_leases" USING btree ("key","expires_at");