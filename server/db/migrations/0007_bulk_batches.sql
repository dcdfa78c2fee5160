CREATE TABLE "bulk_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_by" integer NOT NULL,
	"rows" jsonb NOT NULL,
	"problems" jsonb NOT NULL,
	"good_rows" jsonb NOT NULL,
	"zip_key" text,
	"imported_through" integer DEFAULT 0 NOT NULL,
	"indexed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"finished" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_batches" ADD CONSTRAINT "bulk_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;