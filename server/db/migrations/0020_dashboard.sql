CREATE TABLE "dashboard_summaries" (
	"scope" text PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"counted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "registrations_diet_created_idx" ON "registrations" USING btree ("diet_id","created_at") WHERE "registrations"."reg_status" = 'registered';--> statement-breakpoint
CREATE INDEX "payments_paid_at_idx" ON "payments" USING btree ("paid_at") WHERE "payments"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "published_results_diet_school_idx" ON "published_results" USING btree ("diet_id","training_school_id","outcome");