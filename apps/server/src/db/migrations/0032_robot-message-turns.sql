ALTER TABLE "robot_messages" ADD COLUMN "claimed_by" text;--> statement-breakpoint
CREATE INDEX "robot_messages_user" ON "robot_messages" USING btree ("robot_id","external_user_id","created_at");