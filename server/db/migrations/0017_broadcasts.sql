CREATE TABLE "broadcast_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"broadcast_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcast_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"broadcast_id" integer NOT NULL,
	"training_school_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"round" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "broadcast_recipients" (
	"broadcast_id" integer NOT NULL,
	"training_school_id" integer NOT NULL,
	"read_at" timestamp with time zone,
	"read_by" integer,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer,
	CONSTRAINT "broadcast_recipients_broadcast_id_training_school_id_pk" PRIMARY KEY("broadcast_id","training_school_id")
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"audience" jsonb NOT NULL,
	"requires_acknowledgement" boolean NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"withdrawn_by" integer,
	"reminders" smallint DEFAULT 0 NOT NULL,
	"last_reminded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "broadcast_attachments" ADD CONSTRAINT "broadcast_attachments_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_attachments" ADD CONSTRAINT "broadcast_attachments_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_mails" ADD CONSTRAINT "broadcast_mails_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_mails" ADD CONSTRAINT "broadcast_mails_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_mails" ADD CONSTRAINT "broadcast_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_training_school_id_training_schools_id_fk" FOREIGN KEY ("training_school_id") REFERENCES "public"."training_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_read_by_users_id_fk" FOREIGN KEY ("read_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_withdrawn_by_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_attachments_broadcast_idx" ON "broadcast_attachments" USING btree ("broadcast_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_mails_once_key" ON "broadcast_mails" USING btree ("broadcast_id","user_id","round");--> statement-breakpoint
CREATE INDEX "broadcast_mails_pending_idx" ON "broadcast_mails" USING btree ("id") WHERE "broadcast_mails"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "broadcast_recipients_school_idx" ON "broadcast_recipients" USING btree ("training_school_id","broadcast_id");