ALTER TABLE "payment_items" ADD COLUMN "live" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_items_candidate_live_key" ON "payment_items" USING btree ("fee_id","candidate_id") WHERE "payment_items"."live" and "payment_items"."candidate_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_items_school_live_key" ON "payment_items" USING btree ("fee_id","training_school_id") WHERE "payment_items"."live" and "payment_items"."candidate_id" is null;--> statement-breakpoint
-- hand-written (issue 22, payments: one live payment a candidate and fee)
-- Items of payments started, pending or paid hold their candidate (or school) for their fee; where two
-- such payments share one, the one credited (else paid, else newest) keeps it.
UPDATE "payment_items" SET "live" = true WHERE "id" IN (
  SELECT DISTINCT ON (i."fee_id", coalesce(i."candidate_id", -i."training_school_id")) i."id"
  FROM "payment_items" i JOIN "payments" p ON p."id" = i."payment_id"
  WHERE p."status" IN ('initialised', 'pending', 'paid')
  ORDER BY i."fee_id", coalesce(i."candidate_id", -i."training_school_id"), i."credited" DESC,
    (p."status" = 'paid') DESC, p."id" DESC
);
