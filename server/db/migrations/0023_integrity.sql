CREATE TABLE "duplicate_pairs" (
	"id" serial PRIMARY KEY NOT NULL,
	"candidate_a" integer NOT NULL,
	"candidate_b" integer NOT NULL,
	"same_photo" boolean NOT NULL,
	"same_identity" boolean NOT NULL,
	"photo_likeness" real,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"not_same_at" timestamp with time zone,
	"not_same_by" integer
);
--> statement-breakpoint
CREATE TABLE "integrity_pending" (
	"candidate_id" integer PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrity_scans" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"candidates" integer NOT NULL,
	"pairs" integer NOT NULL,
	"ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photo_hashes" (
	"file_id" integer PRIMARY KEY NOT NULL,
	"candidate_id" integer NOT NULL,
	"hash" bigint,
	"thumb" "bytea"
);
--> statement-breakpoint
ALTER TABLE "duplicate_pairs" ADD CONSTRAINT "duplicate_pairs_candidate_a_candidates_id_fk" FOREIGN KEY ("candidate_a") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duplicate_pairs" ADD CONSTRAINT "duplicate_pairs_candidate_b_candidates_id_fk" FOREIGN KEY ("candidate_b") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duplicate_pairs" ADD CONSTRAINT "duplicate_pairs_not_same_by_users_id_fk" FOREIGN KEY ("not_same_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_pending" ADD CONSTRAINT "integrity_pending_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_hashes" ADD CONSTRAINT "photo_hashes_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_hashes" ADD CONSTRAINT "photo_hashes_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "duplicate_pairs_key" ON "duplicate_pairs" USING btree ("candidate_a","candidate_b");--> statement-breakpoint
CREATE INDEX "duplicate_pairs_b_idx" ON "duplicate_pairs" USING btree ("candidate_b");--> statement-breakpoint
CREATE INDEX "duplicate_pairs_open_idx" ON "duplicate_pairs" USING btree ("id") WHERE "duplicate_pairs"."not_same_at" is null;--> statement-breakpoint
CREATE INDEX "photo_hashes_candidate_idx" ON "photo_hashes" USING btree ("candidate_id");--> statement-breakpoint
CREATE INDEX "candidates_birth_idx" ON "candidates" USING btree ("date_of_birth");