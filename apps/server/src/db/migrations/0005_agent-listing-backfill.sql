-- Listings approved before listing cards existed: hirers keep seeing what they see now (the agent's
-- current card and price) until the next approved request, and copies are not allowed (the owner
-- never chose). The skill count is that of the listed version.
UPDATE "agents" AS a SET "listing" = jsonb_build_object(
  'agentName', a."agent_name",
  'agentDescription', a."agent_description",
  'agentIcon', a."agent_icon",
  'agentIconBackground', a."agent_icon_background",
  'priceCents', a."price_cents",
  'copyable', false,
  'skillNum', coalesce((
    SELECT jsonb_array_length(coalesce(v."snapshot"->'bindings'->'plugins', '[]'::jsonb))
         + jsonb_array_length(coalesce(v."snapshot"->'bindings'->'externalPlugins', '[]'::jsonb))
         + jsonb_array_length(coalesce(v."snapshot"->'bindings'->'workflows', '[]'::jsonb))
         + jsonb_array_length(coalesce(v."snapshot"->'bindings'->'rules', '[]'::jsonb))
    FROM "agent_versions" AS v WHERE v."agent_id" = a."id" AND v."version_no" = a."launch_version"
  ), 0)
) WHERE a."launch_version" IS NOT NULL AND a."listing" IS NULL;--> statement-breakpoint
-- Requests made before: they asked for the agent's current card, not copyable.
UPDATE "agent_applies" AS r SET "card" = jsonb_build_object(
  'agentName', a."agent_name",
  'agentDescription', a."agent_description",
  'agentIcon', a."agent_icon",
  'agentIconBackground', a."agent_icon_background",
  'priceCents', a."price_cents",
  'copyable', false,
  'skillNum', coalesce((
    SELECT jsonb_array_length(coalesce(v."snapshot"->'bindings'->'plugins', '[]'::jsonb))
         + jsonb_array_length(coalesce(v."snapshot"->'bindings'->'externalPlugins', '[]'::jsonb))
         + jsonb_array_length(coalesce(v."snapshot"->'bindings'->'workflows', '[]'::jsonb))
         + jsonb_array_length(coalesce(v."snapshot"->'bindings'->'rules', '[]'::jsonb))
    FROM "agent_versions" AS v WHERE v."agent_id" = r."agent_id" AND v."version_no" = r."version_no"
  ), 0)
) FROM "agents" AS a WHERE a."id" = r."agent_id" AND r."card" IS NULL;
