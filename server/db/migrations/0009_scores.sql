CREATE TABLE "in_course_scores" (
	"sheet_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"first_semester_score" smallint,
	"second_semester_score" smallint,
	"third_semester_score" smallint,
	"total_score" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "in_course_scores_sheet_id_candidate_id_pk" PRIMARY KEY("sheet_id","candidate_id")
);
--> statement-breakpoint
CREATE TABLE "papers" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_header_id" integer NOT NULL,
	"name" text NOT NULL,
	"q_max" smallint[] NOT NULL,
	"tolerance_question" smallint NOT NULL,
	"tolerance_total" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "result_holds" (
	"id" serial PRIMARY KEY NOT NULL,
	"diet_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"reason" text NOT NULL,
	"held_by" integer,
	"released_at" timestamp with time zone,
	"released_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "result_publications" (
	"diet_id" integer NOT NULL,
	"course_header_id" integer NOT NULL,
	"published_at" timestamp with time zone,
	"published_by" integer,
	"withdrawn_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "result_publications_diet_id_course_header_id_pk" PRIMARY KEY("diet_id","course_header_id")
);
--> statement-breakpoint
CREATE TABLE "result_rules" (
	"course_header_id" integer PRIMARY KEY NOT NULL,
	"in_course_weight" smallint NOT NULL,
	"pass_mark" smallint NOT NULL,
	"grade_bands" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results" (
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
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "score_sheets" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"diet_id" integer NOT NULL,
	"course_header_id" integer NOT NULL,
	"paper_id" integer,
	"training_school_id" integer,
	"state" text DEFAULT 'open' NOT NULL,
	"marker_one_id" integer NOT NULL,
	"marker_two_id" integer,
	"marker_three_id" integer,
	"marker_one_submitted_at" timestamp with time zone,
	"marker_two_submitted_at" timestamp with time zone,
	"locked_at" timestamp with time zone,
	"flagged" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "script_marks" (
	"sheet_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"marker" smallint NOT NULL,
	"q1" smallint,
	"q2" smallint,
	"q3" smallint,
	"q4" smallint,
	"q5" smallint,
	"absent" boolean DEFAULT false NOT NULL,
	"total_score" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "script_marks_sheet_id_candidate_id_marker_pk" PRIMARY KEY("sheet_id","candidate_id","marker")
);
--> statement-breakpoint
ALTER TABLE "in_course_scores" ADD CONSTRAINT "in_course_scores_sheet_id_score_sheets_id_fk" FOREIGN KEY ("sheet_id") REFERENCES "public"."score_sheets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_course_scores" ADD CONSTRAINT "in_course_scores_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_course_scores" ADD CONSTRAINT "in_course_scores_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_course_header_id_course_headers_id_fk" FOREIGN KEY ("course_header_id") REFERENCES "public"."course_headers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_holds" ADD CONSTRAINT "result_holds_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_holds" ADD CONSTRAINT "result_holds_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_holds" ADD CONSTRAINT "result_holds_held_by_users_id_fk" FOREIGN KEY ("held_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_holds" ADD CONSTRAINT "result_holds_released_by_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_publications" ADD CONSTRAINT "result_publications_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_publications" ADD CONSTRAINT "result_publications_course_header_id_course_headers_id_fk" FOREIGN KEY ("course_header_id") REFERENCES "public"."course_headers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_publications" ADD CONSTRAINT "result_publications_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_rules" ADD CONSTRAINT "result_rules_course_header_id_course_headers_id_fk" FOREIGN KEY ("course_header_id") REFERENCES "public"."course_headers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_course_header_id_course_headers_id_fk" FOREIGN KEY ("course_header_id") REFERENCES "public"."course_headers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_diet_id_diets_id_fk" FOREIGN KEY ("diet_id") REFERENCES "public"."diets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_course_header_id_course_headers_id_fk" FOREIGN KEY ("course_header_id") REFERENCES "public"."course_headers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_marker_one_id_users_id_fk" FOREIGN KEY ("marker_one_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_marker_two_id_users_id_fk" FOREIGN KEY ("marker_two_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_marker_three_id_users_id_fk" FOREIGN KEY ("marker_three_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "script_marks" ADD CONSTRAINT "script_marks_sheet_id_score_sheets_id_fk" FOREIGN KEY ("sheet_id") REFERENCES "public"."score_sheets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "script_marks" ADD CONSTRAINT "script_marks_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "script_marks" ADD CONSTRAINT "script_marks_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "papers_name_key" ON "papers" USING btree ("course_header_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "result_holds_open_key" ON "result_holds" USING btree ("diet_id","candidate_id") WHERE "result_holds"."released_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "results_key" ON "results" USING btree ("diet_id","course_header_id","candidate_id");--> statement-breakpoint
CREATE INDEX "results_school_idx" ON "results" USING btree ("training_school_id","diet_id");--> statement-breakpoint
CREATE UNIQUE INDEX "score_sheets_key" ON "score_sheets" USING btree ("diet_id","course_header_id",coalesce("paper_id", 0),coalesce("training_school_id", 0));