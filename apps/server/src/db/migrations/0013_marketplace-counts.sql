-- The marketplace at any catalogue size (issue 19): the unfiltered total comes from a per-tenant
-- counter kept by a trigger, and name search uses a GIN index over each listed name's characters
-- and character pairs. Pairs serve any substring search, Chinese two-character terms included
-- (trigrams cannot): a name contains the term only if it holds all the term's pairs, and the
-- query rechecks with ILIKE.
CREATE FUNCTION agent_name_grams(name text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT coalesce(array_agg(DISTINCT g), '{}') FROM (
      SELECT substr(lower(name), i, 1) AS g FROM generate_series(1, length(name)) AS i
      UNION ALL
      SELECT substr(lower(name), i, 2) FROM generate_series(1, length(name) - 1) AS i
    ) AS grams
  $$;
--> statement-breakpoint
CREATE INDEX agents_market_names ON agents USING gin (agent_name_grams(listing->>'agentName'))
  WHERE launch_version IS NOT NULL AND launch_version_disabled = false AND deleted_at IS NULL;
--> statement-breakpoint
CREATE FUNCTION agents_market_count() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  DECLARE
    was boolean := false;
    is_now boolean := false;
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      was := OLD.launch_version IS NOT NULL AND NOT OLD.launch_version_disabled AND OLD.deleted_at IS NULL;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      is_now := NEW.launch_version IS NOT NULL AND NOT NEW.launch_version_disabled AND NEW.deleted_at IS NULL;
    END IF;
    IF was AND (NOT is_now OR OLD.tenant_id <> NEW.tenant_id) THEN
      UPDATE agent_market_counts SET listed = listed - 1 WHERE tenant_id = OLD.tenant_id;
    END IF;
    IF is_now AND (NOT was OR OLD.tenant_id <> NEW.tenant_id) THEN
      INSERT INTO agent_market_counts (tenant_id, listed) VALUES (NEW.tenant_id, 1)
        ON CONFLICT (tenant_id) DO UPDATE SET listed = agent_market_counts.listed + 1;
    END IF;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
-- Only the columns that decide "listed" fire it: a chat's use_count bump does not.
CREATE TRIGGER agents_market_count
  AFTER INSERT OR DELETE OR UPDATE OF launch_version, launch_version_disabled, deleted_at, tenant_id ON agents
  FOR EACH ROW EXECUTE FUNCTION agents_market_count();
--> statement-breakpoint
INSERT INTO agent_market_counts (tenant_id, listed)
  SELECT tenant_id, count(*) FROM agents
  WHERE launch_version IS NOT NULL AND launch_version_disabled = false AND deleted_at IS NULL
  GROUP BY tenant_id;
