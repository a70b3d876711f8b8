ALTER TYPE "public"."one_time_token_purpose" ADD VALUE 'email-change';--> statement-breakpoint
ALTER TYPE "public"."session_stage" ADD VALUE 'password-change' BEFORE 'active';--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD COLUMN "email" varchar(254);