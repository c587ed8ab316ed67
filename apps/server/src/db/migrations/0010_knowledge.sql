CREATE TABLE "knowledge_bases" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"uri" text DEFAULT '' NOT NULL,
	"embedding_model_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "knowledge_files" (
	"id" text PRIMARY KEY NOT NULL,
	"base_id" text NOT NULL,
	"folder_id" text,
	"stored_file_id" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"state" text DEFAULT 'QUEUING' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"options" jsonb,
	"parse_no" integer DEFAULT 0 NOT NULL,
	"committed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_folders" (
	"id" text PRIMARY KEY NOT NULL,
	"base_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_folders_name" UNIQUE("base_id","name")
);
--> statement-breakpoint
CREATE TABLE "knowledge_segments" (
	"id" text PRIMARY KEY NOT NULL,
	"base_id" text NOT NULL,
	"file_id" text,
	"parse_no" integer DEFAULT 0 NOT NULL,
	"ingest_version" integer DEFAULT 0 NOT NULL,
	"position" integer NOT NULL,
	"content" text NOT NULL,
	"title" text,
	"question" text,
	"answer" text,
	"tokens" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"edited" boolean DEFAULT false NOT NULL,
	"head_terms" text DEFAULT '' NOT NULL,
	"body_terms" text DEFAULT '' NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, head_terms), 'A') || setweight(to_tsvector('simple'::regconfig, body_terms), 'B')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD CONSTRAINT "knowledge_bases_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_files" ADD CONSTRAINT "knowledge_files_base_id_knowledge_bases_id_fk" FOREIGN KEY ("base_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_files" ADD CONSTRAINT "knowledge_files_folder_id_knowledge_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."knowledge_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_folders" ADD CONSTRAINT "knowledge_folders_base_id_knowledge_bases_id_fk" FOREIGN KEY ("base_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_segments" ADD CONSTRAINT "knowledge_segments_base_id_knowledge_bases_id_fk" FOREIGN KEY ("base_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_segments" ADD CONSTRAINT "knowledge_segments_file_id_knowledge_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."knowledge_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_bases_owner" ON "knowledge_bases" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_bases_tenant" ON "knowledge_bases" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_files_base" ON "knowledge_files" USING btree ("base_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_segments_file" ON "knowledge_segments" USING btree ("file_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_segments_base" ON "knowledge_segments" USING btree ("base_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_segments_tsv" ON "knowledge_segments" USING gin ("tsv") WITH (fastupdate=false);