ALTER TABLE "agent_applies" ADD COLUMN "card" jsonb;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "listing" jsonb;