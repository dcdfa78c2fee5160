CREATE TABLE "published_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"diet_id" integer NOT NULL,
	"course_header_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"training_school_id" integer NOT NULL,
	"exam_mark" integer,
	"in_course_mark" integer,
	"final_mark" integer,
	"grade" text,
	"outcome" text NOT NULL,
	"note" text,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "result_publications" ADD COLUMN "withdrawn_by" integer;--> statement-breakpoint
ALTER TABLE "result_publications" ADD COLUMN "withdraw_reason" text;--> statement-breakpoint
ALTER TABLE "published_results" ADD CONSTRAINT "published_results_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published_results" ADD CONSTRAINT "published_results_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published_results" ADD CONSTRAINT "published_results_publication_fk" FOREIGN KEY ("diet_id","course_header_id") REFERENCES "public"."result_publications"("diet_id","course_header_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "published_results_key" ON "published_results" USING btree ("diet_id","course_header_id","candidate_id");--> statement-breakpoint
CREATE INDEX "published_results_school_idx" ON "published_results" USING btree ("training_school_id","diet_id");--> statement-breakpoint
ALTER TABLE "result_publications" ADD CONSTRAINT "result_publications_withdrawn_by_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- hand-written (issue 22, publish)
-- Publications live before snapshots existed: what the schools read is what is computed now.
INSERT INTO "published_results" ("diet_id", "course_header_id", "candidate_id", "training_school_id", "exam_mark", "in_course_mark", "final_mark", "grade", "outcome", "note", "published_at")
SELECT r."diet_id", r."course_header_id", r."candidate_id", r."training_school_id", r."exam_mark", r."in_course_mark", r."final_mark", r."grade", r."outcome", r."note", p."published_at"
FROM "results" r JOIN "result_publications" p ON p."diet_id" = r."diet_id" AND p."course_header_id" = r."course_header_id"
WHERE p."published_at" IS NOT NULL AND p."withdrawn_at" IS NULL;--> statement-breakpoint
-- A candidate's paper is decided by one sheet: two sheets of a diet, course header and paper (0: the
-- in-course sheet) may not cover a school in common (null school: every school, the unbounded range).
-- Ranges' gist operators need no extension; an exclusion constraint holds under parallel inserts.
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_one_sheet_per_candidate" EXCLUDE USING gist (
	int4range("diet_id", "diet_id", '[]') WITH =,
	int4range("course_header_id", "course_header_id", '[]') WITH =,
	int4range(coalesce("paper_id", 0), coalesce("paper_id", 0), '[]') WITH =,
	(CASE WHEN "training_school_id" IS NULL THEN int4range(NULL, NULL) ELSE int4range("training_school_id", "training_school_id", '[]') END) WITH &&
);
