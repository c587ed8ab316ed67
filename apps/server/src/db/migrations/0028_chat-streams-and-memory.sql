CREATE TABLE "chat_memory" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"user_id" text NOT NULL,
	"session_id" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_stream_events" (
	"stream_id" text NOT NULL,
	"from_seq" integer NOT NULL,
	"to_seq" integer NOT NULL,
	"events" jsonb NOT NULL,
	CONSTRAINT "chat_stream_events_stream_id_from_seq_pk" PRIMARY KEY("stream_id","from_seq")
);
--> statement-breakpoint
CREATE TABLE "chat_streams" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"user_id" text NOT NULL,
	"ended_at" timestamp with time zone,
	"alive_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_memory" ADD CONSTRAINT "chat_memory_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_stream_events" ADD CONSTRAINT "chat_stream_events_stream_id_chat_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."chat_streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_memory_key" ON "chat_memory" USING btree ("agent_id","user_id","session_id","name");--> statement-breakpoint
CREATE INDEX "chat_streams_session" ON "chat_streams" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_streams_alive" ON "chat_streams" USING btree ("alive_at");