DROP INDEX "audit_log_at_idx";--> statement-breakpoint
DROP INDEX "audit_log_entity_idx";--> statement-breakpoint
DROP INDEX "audit_log_actor_idx";--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "school_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_school_id_training_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The school of the entries written before audit() filled it: the entity's school where the entity
-- still says it, else the acting user's (a school admin's own actions). Entries about the board's own
-- things (a diet, a fee, a course header) keep none. The CASE keeps a non-numeric entity_id from the cast.
UPDATE "audit_log" a SET "school_id" = t."training_school_id" FROM "candidates" t WHERE a."entity" = 'candidate' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = t."training_school_id" FROM "users" t WHERE a."entity" = 'user' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = t."training_school_id" FROM "payments" t WHERE a."entity" = 'payment' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = t."training_school_id" FROM "score_sheets" t WHERE a."entity" = 'score_sheet' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = t."training_school_id" FROM "notifications" t WHERE a."entity" = 'notification' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = t."training_school_id" FROM "conversations" t WHERE a."entity" = 'conversation' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = t."training_school_id" FROM "document_prints" t WHERE a."entity" = 'document_print' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = t."id" FROM "training_schools" t WHERE a."entity" = 'training_school' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = c."training_school_id" FROM "exam_offences" t JOIN "candidates" c ON c."id" = t."candidate_id" WHERE a."entity" = 'exam_offence' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = c."training_school_id" FROM "resits" t JOIN "candidates" c ON c."id" = t."candidate_id" WHERE a."entity" = 'resit' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = c."training_school_id" FROM "result_holds" t JOIN "candidates" c ON c."id" = t."candidate_id" WHERE a."entity" = 'result_hold' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = p."training_school_id" FROM "payment_issues" t JOIN "payments" p ON p."id" = t."payment_id" WHERE a."entity" = 'payment_issue' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = u."training_school_id" FROM "access_tokens" t JOIN "users" u ON u."id" = t."user_id" WHERE a."entity" = 'access_token' AND t."id" = CASE WHEN a.entity_id ~ '^[0-9]{1,9}$' THEN a.entity_id::int END;--> statement-breakpoint
UPDATE "audit_log" a SET "school_id" = u."training_school_id" FROM "users" u WHERE a."school_id" IS NULL AND u."id" = a."actor_id" AND u."training_school_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_impersonator_idx" ON "audit_log" USING btree ("impersonator_id","at","id") WHERE "audit_log"."impersonator_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_school_idx" ON "audit_log" USING btree ("school_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","at","id");
