-- The marketplace's filters at any catalogue size (issue 19). A filtered page is read one of two ways
-- (agents.repository.ts): every match through an index here, then sorted, when few agents match; or
-- the `agents_market` walk in order, checking each row, when many do.
--
-- Names: searched, not written, on every read, while each counted use rewrites the row (use_count is
-- in `agents_market`) and so adds its name's grams: with fastupdate those wait in a pending list that
-- every search reads through until a vacuum merges it (PGlite has no autovacuum at all).
ALTER INDEX agents_market_names SET (fastupdate = off);
--> statement-breakpoint
SELECT gin_clean_pending_list('agents_market_names');
--> statement-breakpoint
-- Tags: `config->'launchTags' @> '["tag"]'` reads a tag's agents from here; the walk checks rows with `?`,
-- which jsonb_path_ops does not serve, so the planner cannot swap the walk for this index.
CREATE INDEX agents_market_tags ON agents USING gin ((config->'launchTags') jsonb_path_ops) WITH (fastupdate = off)
  WHERE launch_version IS NOT NULL AND launch_version_disabled = false AND deleted_at IS NULL;
--> statement-breakpoint
-- Labels: one label's agents in the marketplace's order, so a label's page is a walk of its own.
CREATE INDEX agents_market_labels ON agents USING btree ((config->>'labelId'), use_count DESC, last_modified_at DESC, id)
  WHERE launch_version IS NOT NULL AND launch_version_disabled = false AND deleted_at IS NULL;
