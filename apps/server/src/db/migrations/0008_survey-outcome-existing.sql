-- Users who signed in more than once before the survey was remembered were shown it already
-- (it used to come only at the first sign-in): they do not get it again.
UPDATE "users" SET "survey_outcome" = 'skipped' WHERE "survey_outcome" IS NULL AND "login_count" > 1;
