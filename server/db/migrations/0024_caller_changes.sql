-- Issue 28: portal processes keep who a token belongs to in memory (server/auth/callerCache.ts). Every
-- change that can end or alter a token's caller tells them, whichever code or process made it: a NOTIFY
-- sent in the changing transaction, delivered to every listening process when it commits.
CREATE FUNCTION "portal_callers_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_callers', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "access_tokens_callers_changed"
  AFTER UPDATE OF "revoked_at", "expires_at", "user_id", "impersonator_id", "token_hash" OR DELETE
  ON "access_tokens" FOR EACH STATEMENT EXECUTE FUNCTION "portal_callers_changed"();
--> statement-breakpoint
CREATE TRIGGER "users_callers_changed"
  AFTER UPDATE OF "role", "active", "training_school_id" OR DELETE
  ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "portal_callers_changed"();
