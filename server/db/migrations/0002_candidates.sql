-- Added by hand: drizzle-kit does not emit CREATE EXTENSION. Trigrams back the candidate search (docs/decisions.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE SEQUENCE "public"."candidate_index_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "candidates" (
	"id" serial PRIMARY KEY NOT NULL,
	"candidate_index" text NOT NULL,
	"training_school_id" integer NOT NULL,
	"course_header_id" integer NOT NULL,
	"year" smallint NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"middle_name" text,
	"title" text,
	"date_of_birth" date NOT NULL,
	"candidate_category" text NOT NULL,
	"marital_status" text NOT NULL,
	"gender" text NOT NULL,
	"nationality" text NOT NULL,
	"certificate_evaluated" text,
	"certificate_evaluated_2" text,
	"year_of_certificate_evaluated" text,
	"year_of_certificate_evaluated_2" text,
	"exam_number_1" text,
	"exam_number_2" text,
	"exam_month" text,
	"exam_month_2" text,
	"english" text,
	"biology" text,
	"health_science" text,
	"chemistry" text,
	"mathematics" text,
	"geography" text,
	"economics" text,
	"food_and_nutrition" text,
	"accounting" text,
	"commerce" text,
	"physics" text,
	"technical_drawing" text,
	"integrated_science" text,
	"general_science" text,
	"agric" text,
	"reg_nurse" text,
	"reg_midwife" text,
	"yoruba" text,
	"igbo" text,
	"hausa" text,
	"history" text,
	"religious_knowledge" text,
	"government" text,
	"literature" text,
	"reg_status" text DEFAULT 'unregistered' NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"verified_by" integer,
	"verified_at" timestamp with time zone,
	"submission_key" text,
	"search_text" text GENERATED ALWAYS AS (lower(first_name || ' ' || coalesce(middle_name || ' ', '') || last_name || ' ' || candidate_index)) STORED NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "candidate_id" integer;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "field" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "data" jsonb;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_course_header_id_course_headers_id_fk" FOREIGN KEY ("course_header_id") REFERENCES "public"."course_headers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_verified_by_users_id_fk" FOREIGN KEY ("verified_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "candidates_index_key" ON "candidates" USING btree ("candidate_index");--> statement-breakpoint
CREATE UNIQUE INDEX "candidates_submission_key" ON "candidates" USING btree ("submission_key");--> statement-breakpoint
CREATE UNIQUE INDEX "candidates_person_key" ON "candidates" USING btree ("training_school_id","course_header_id",lower("first_name"),lower("last_name"),"date_of_birth");--> statement-breakpoint
CREATE INDEX "candidates_school_idx" ON "candidates" USING btree ("training_school_id","id");--> statement-breakpoint
CREATE INDEX "candidates_course_header_idx" ON "candidates" USING btree ("course_header_id","id");--> statement-breakpoint
CREATE INDEX "candidates_year_idx" ON "candidates" USING btree ("year","id");--> statement-breakpoint
CREATE INDEX "candidates_reg_status_idx" ON "candidates" USING btree ("reg_status","id");--> statement-breakpoint
CREATE INDEX "candidates_verified_idx" ON "candidates" USING btree ("verified","id");--> statement-breakpoint
CREATE INDEX "candidates_search_idx" ON "candidates" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "candidates_first_name_prefix_idx" ON "candidates" USING btree (lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "candidates_last_name_prefix_idx" ON "candidates" USING btree (lower("last_name") text_pattern_ops);--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "files_candidate_field_key" ON "files" USING btree ("candidate_id","field");