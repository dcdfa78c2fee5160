CREATE TABLE "diet_extensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"diet_id" integer NOT NULL,
	"training_school_id" integer NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"granted_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "diets" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"first_paper_on" date NOT NULL,
	"last_paper_on" date NOT NULL,
	"registration_opens_at" timestamp with time zone NOT NULL,
	"registration_closes_at" timestamp with time zone NOT NULL,
	"current" boolean DEFAULT false NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registration_reminders" (
	"diet_id" integer NOT NULL,
	"training_school_id" integer NOT NULL,
	"hours_before" smallint NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"unregistered" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "registration_reminders_diet_id_training_school_id_hours_before_closes_at_pk" PRIMARY KEY("diet_id","training_school_id","hours_before","closes_at")
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"diet_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"reg_status" text NOT NULL,
	"changed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registrations_diet_id_candidate_id_pk" PRIMARY KEY("diet_id","candidate_id")
);
--> statement-breakpoint
CREATE TABLE "school_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_school_id" integer NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "candidates_reg_status_idx";--> statement-breakpoint
DROP INDEX "resits_listed_key";--> statement-breakpoint
ALTER TABLE "exam_offences" ALTER COLUMN "exam" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_offences" ALTER COLUMN "sanction_from" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "resits" ALTER COLUMN "exam" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_offences" ADD COLUMN "diet_id" integer;--> statement-breakpoint
ALTER TABLE "exam_offences" ADD COLUMN "sanction_diets" smallint;--> statement-breakpoint
ALTER TABLE "resits" ADD COLUMN "diet_id" integer;--> statement-breakpoint
-- Data: every exam typed before diets becomes a diet, matched on its normalised text (trimmed, spaces
-- collapsed, case ignored: "May 2027" and "may  2027" are one diet), named by its most used spelling,
-- with its paper dates and an empty window on the migration day for the board to set; nothing is lost
-- (the typed text stays in "exam").
INSERT INTO "diets" ("code", "name", "first_paper_on", "last_paper_on", "registration_opens_at", "registration_closes_at")
SELECT 'EXAM-' || lpad((row_number() OVER (ORDER BY "key"))::text, 3, '0'), "name", current_date, current_date, now(), now()
FROM (
  SELECT lower(regexp_replace(btrim("exam"), '\s+', ' ', 'g')) AS "key",
         mode() WITHIN GROUP (ORDER BY regexp_replace(btrim("exam"), '\s+', ' ', 'g')) AS "name"
  FROM (SELECT "exam" FROM "resits" UNION ALL SELECT "exam" FROM "exam_offences") AS "typed"
  GROUP BY 1
) AS "exams";--> statement-breakpoint
UPDATE "resits" SET "diet_id" = "diets"."id" FROM "diets"
WHERE lower(regexp_replace(btrim("resits"."exam"), '\s+', ' ', 'g')) = lower("diets"."name");--> statement-breakpoint
UPDATE "exam_offences" SET "diet_id" = "diets"."id" FROM "diets"
WHERE lower(regexp_replace(btrim("exam_offences"."exam"), '\s+', ' ', 'g')) = lower("diets"."name");--> statement-breakpoint
-- Two listed entries of a candidate now at one diet become one: the oldest keeps the union of their
-- papers (in the form's order); the others are removed from the list (kept, as every removed row is).
UPDATE "resits" SET "papers" = "merged"."papers"
FROM (
  SELECT "keep", jsonb_agg("paper" ORDER BY array_position(ARRAY['Paper I','Paper II','Paper III','Practical','Oral','Project'], "paper")) AS "papers"
  FROM (
    SELECT DISTINCT "listed"."keep", "paper"
    FROM (
      SELECT "papers", min("id") OVER (PARTITION BY "candidate_id", "diet_id") AS "keep"
      FROM "resits" WHERE "removed_at" IS NULL
    ) AS "listed"
    CROSS JOIN LATERAL jsonb_array_elements_text("listed"."papers") AS "paper"
  ) AS "papers"
  GROUP BY "keep"
) AS "merged"
WHERE "resits"."id" = "merged"."keep";--> statement-breakpoint
UPDATE "resits" SET "removed_at" = now()
WHERE "removed_at" IS NULL AND EXISTS (
  SELECT 1 FROM "resits" AS "older"
  WHERE "older"."removed_at" IS NULL AND "older"."candidate_id" = "resits"."candidate_id"
    AND "older"."diet_id" = "resits"."diet_id" AND "older"."id" < "resits"."id"
);--> statement-breakpoint
-- Registrations made before diets belong to one diet made for them, current so they stay listed, its
-- window empty (the board opens the next diet).
INSERT INTO "diets" ("code", "name", "first_paper_on", "last_paper_on", "registration_opens_at", "registration_closes_at", "current")
SELECT 'BEFORE-DIETS', 'Registrations before diets', current_date, current_date, now(), now(), true
WHERE EXISTS (SELECT 1 FROM "candidates" WHERE "reg_status" = 'registered');--> statement-breakpoint
INSERT INTO "registrations" ("diet_id", "candidate_id", "reg_status")
SELECT "diets"."id", "candidates"."id", 'registered' FROM "candidates", "diets"
WHERE "candidates"."reg_status" = 'registered' AND "diets"."code" = 'BEFORE-DIETS';--> statement-breakpoint
ALTER TABLE "resits" ALTER COLUMN "diet_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_offences" ALTER COLUMN "diet_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "diet_extensions" ADD CONSTRAINT "diet_extensions_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diet_extensions" ADD CONSTRAINT "diet_extensions_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diet_extensions" ADD CONSTRAINT "diet_extensions_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diets" ADD CONSTRAINT "diets_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_reminders" ADD CONSTRAINT "registration_reminders_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registration_reminders" ADD CONSTRAINT "registration_reminders_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_notices" ADD CONSTRAINT "school_notices_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "diet_extensions_school_key" ON "diet_extensions" USING btree ("diet_id","training_school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "diets_code_key" ON "diets" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "diets_one_current_key" ON "diets" USING btree ("current") WHERE "diets"."current";--> statement-breakpoint
CREATE INDEX "diets_first_paper_idx" ON "diets" USING btree ("first_paper_on");--> statement-breakpoint
CREATE INDEX "registrations_status_idx" ON "registrations" USING btree ("diet_id","reg_status","candidate_id");--> statement-breakpoint
CREATE INDEX "registrations_candidate_idx" ON "registrations" USING btree ("candidate_id");--> statement-breakpoint
CREATE INDEX "school_notices_school_idx" ON "school_notices" USING btree ("training_school_id","created_at");--> statement-breakpoint
ALTER TABLE "exam_offences" ADD CONSTRAINT "exam_offences_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resits" ADD CONSTRAINT "resits_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "resits_listed_key" ON "resits" USING btree ("candidate_id","diet_id") WHERE "resits"."removed_at" is null;--> statement-breakpoint
ALTER TABLE "candidates" DROP COLUMN "reg_status";