DROP INDEX "data_tables_tenant_name";--> statement-breakpoint
CREATE UNIQUE INDEX "data_tables_owner_name" ON "data_tables" USING btree ("tenant_id","owner_id",lower("name"));