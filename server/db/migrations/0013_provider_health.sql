CREATE TABLE "provider_health" (
	"provider" text PRIMARY KEY NOT NULL,
	"failing_since" timestamp with time zone,
	"cause" text,
	"http_status" integer,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"alerted_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
