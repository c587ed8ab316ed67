-- A concurrent place (a user's chat streams) taken in one statement instead of a transaction of
-- four (begin, advisory lock, insert, commit): each round trip before a reply's first token is a
-- socket write and a wake-up of both sides. The function holds the key's advisory lock until its
-- statement commits, and its insert (a new snapshot, after the lock) sees every lease committed
-- by an earlier holder, so parallel takers neither overrun the limit nor shut each other out.
CREATE FUNCTION take_lease(lease_id text, lease_key text, expires timestamptz, now_at timestamptz, place_limit int) RETURNS boolean
  LANGUAGE plpgsql VOLATILE
  AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('lease:' || lease_key));
    INSERT INTO rate_leases (id, key, expires_at)
      SELECT lease_id, lease_key, expires
      WHERE (SELECT count(*) FROM rate_leases WHERE key = lease_key AND expires_at > now_at) < place_limit;
    RETURN FOUND;
  END
  $$;
