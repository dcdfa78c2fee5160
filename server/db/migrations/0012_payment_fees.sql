ALTER TABLE "payments" ALTER COLUMN "access_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fees_kobo" integer;--> statement-breakpoint
ALTER TABLE "sandbox_transactions" ADD COLUMN "pass_fees" boolean DEFAULT false NOT NULL;