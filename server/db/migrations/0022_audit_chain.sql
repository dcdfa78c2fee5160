-- The audit log, append-only and hash-chained (docs/decisions.md, "A tamper-evident audit log").
CREATE TABLE "audit_chain_head" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"last_id" bigint,
	"last_hash" text NOT NULL,
	"last_at" timestamp with time zone,
	CONSTRAINT "audit_chain_head_one" CHECK ("audit_chain_head"."one")
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- An entry's canonical text: a JSON array of its fields in this order, as PostgreSQL's jsonb writes it;
-- the time as whole microseconds since 1970 (no time zone in it). server/auditChain.ts builds the same
-- text from the stored fields to check the hashes without this function.
CREATE FUNCTION audit_entry_text(e audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_array(
    e.seq, e.id, (extract(epoch FROM e.at) * 1000000)::bigint, e.actor_id, e.impersonator_id,
    e.action, e.entity, e.entity_id, e.ip, e.request_id, e.before, e.after, e.school_id
  )::text
$$;
--> statement-breakpoint
CREATE FUNCTION audit_entry_hash(prev_hash text, e audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(prev_hash || audit_entry_text(e), 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- The entries written before this migration, chained in the order of their ids.
INSERT INTO "audit_chain_head" ("one", "last_hash") VALUES (true, repeat('0', 64));
--> statement-breakpoint
DO $$
DECLARE
  e audit_log;
  place bigint := 0;
  chained text := repeat('0', 64);
  final_id bigint;
  final_at timestamptz;
BEGIN
  FOR e IN SELECT * FROM audit_log ORDER BY id LOOP
    place := place + 1;
    e.seq := place;
    e.prev_hash := chained;
    chained := audit_entry_hash(e.prev_hash, e);
    UPDATE audit_log SET seq = e.seq, prev_hash = e.prev_hash, hash = chained WHERE id = e.id;
    final_id := e.id;
    final_at := e.at;
  END LOOP;
  UPDATE audit_chain_head SET last_seq = place, last_id = final_id, last_hash = chained, last_at = final_at;
END $$;
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_seq_idx" ON "audit_log" USING btree ("seq");--> statement-breakpoint
-- Every insert is chained to the head, under the head's row lock: concurrent writers wait for each other
-- from here to their commit, so there is one chain, its places without gaps (a rolled-back entry takes
-- its place back with it). Within one transaction the head is read once, then kept in a setting local
-- to the transaction, and written once, at commit, by the deferred trigger below on the last entry:
-- writing the one head row for every entry left a dead version of it each time for the next read to
-- step over, quadratic in a transaction's entries (16,000 in one statement took 12 s).
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kept text[] := string_to_array(nullif(current_setting('audit.chain_head', true), ''), ',');
  head_seq bigint;
  head_hash text;
BEGIN
  IF kept IS NOT NULL AND kept[1] = txid_current()::text THEN
    head_seq := kept[2]::bigint;
    head_hash := kept[3];
  ELSE
    SELECT h.last_seq, h.last_hash INTO head_seq, head_hash FROM audit_chain_head h FOR UPDATE;
  END IF;
  NEW.seq := head_seq + 1;
  NEW.prev_hash := head_hash;
  NEW.hash := audit_entry_hash(NEW.prev_hash, NEW);
  PERFORM set_config('audit.chain_head', concat_ws(',', txid_current(), NEW.seq, NEW.hash), true);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();--> statement-breakpoint
CREATE FUNCTION audit_log_move_head() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seq = split_part(current_setting('audit.chain_head', true), ',', 2)::bigint THEN
    UPDATE audit_chain_head SET last_seq = NEW.seq, last_id = NEW.id, last_hash = NEW.hash, last_at = NEW.at;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER audit_log_move_head AFTER INSERT ON audit_log DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_log_move_head();--> statement-breakpoint
CREATE FUNCTION audit_log_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The audit log is append-only: % on % is refused.', TG_OP, TG_TABLE_NAME;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse();--> statement-breakpoint
-- The head changes only from the insert trigger above (a trigger's own statement runs one level deeper).
CREATE FUNCTION audit_chain_head_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'The audit chain''s head changes only with a new entry: % on % is refused.', TG_OP, TG_TABLE_NAME;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_guard BEFORE UPDATE OR DELETE ON audit_chain_head FOR EACH ROW EXECUTE FUNCTION audit_chain_head_guard();--> statement-breakpoint
CREATE TRIGGER audit_chain_head_no_truncate BEFORE TRUNCATE ON audit_chain_head FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_head_guard();
