-- Embeddings of knowledge segments, one per segment and embedding model. With pgvector (PGlite
-- always; PostgreSQL when the extension is available and may be created) the column is a
-- `vector` of any dimension: HNSW indexes are built per dimension by the application as
-- partial expression indexes. Without it the column is `real[]` and search scans exactly.
DO $$
DECLARE
  has_vector boolean := false;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS vector;
      has_vector := true;
    EXCEPTION WHEN OTHERS THEN
      RAISE WARNING 'pgvector is available but could not be created (%): knowledge vectors are stored as real[]', SQLERRM;
    END;
  END IF;
  IF has_vector THEN
    CREATE TABLE knowledge_vectors (
      segment_id text NOT NULL REFERENCES knowledge_segments(id) ON DELETE CASCADE,
      base_id text NOT NULL,
      model_key text NOT NULL,
      dims integer NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (segment_id, model_key)
    );
  ELSE
    CREATE TABLE knowledge_vectors (
      segment_id text NOT NULL REFERENCES knowledge_segments(id) ON DELETE CASCADE,
      base_id text NOT NULL,
      model_key text NOT NULL,
      dims integer NOT NULL,
      embedding real[] NOT NULL,
      PRIMARY KEY (segment_id, model_key)
    );
  END IF;
  CREATE INDEX knowledge_vectors_base ON knowledge_vectors (base_id, model_key);
END $$;
