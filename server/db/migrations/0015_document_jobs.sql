CREATE TABLE "document_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"ending" text NOT NULL,
	"title" text NOT NULL,
	"query" jsonb NOT NULL,
	"created_by" integer NOT NULL,
	"training_school_id" integer,
	"state" text DEFAULT 'queued' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"file_key" text NOT NULL,
	"bytes" integer,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "document_jobs" ADD CONSTRAINT "document_jobs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_jobs" ADD CONSTRAINT "document_jobs_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_jobs_created_by_idx" ON "document_jobs" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "document_jobs_school_idx" ON "document_jobs" USING btree ("training_school_id");--> statement-breakpoint
CREATE INDEX "document_jobs_created_at_idx" ON "document_jobs" USING btree ("created_at");