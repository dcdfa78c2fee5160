CREATE TABLE "document_prints" (
	"id" serial PRIMARY KEY NOT NULL,
	"ending" text NOT NULL,
	"query" jsonb NOT NULL,
	"training_school_id" integer,
	"payment_id" integer,
	"printed_by" integer NOT NULL,
	"impersonator_id" integer,
	"printed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heading" jsonb NOT NULL,
	"facts" jsonb NOT NULL,
	"row_facts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "school_document_choices" (
	"ending" text PRIMARY KEY NOT NULL,
	"allowed" boolean NOT NULL,
	"changed_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_prints" ADD CONSTRAINT "document_prints_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_prints" ADD CONSTRAINT "document_prints_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_prints" ADD CONSTRAINT "document_prints_printed_by_users_id_fk" FOREIGN KEY ("printed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_prints" ADD CONSTRAINT "document_prints_impersonator_id_users_id_fk" FOREIGN KEY ("impersonator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_document_choices" ADD CONSTRAINT "school_document_choices_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_prints_school_idx" ON "document_prints" USING btree ("training_school_id","id");--> statement-breakpoint
CREATE INDEX "document_prints_payment_idx" ON "document_prints" USING btree ("payment_id","id");