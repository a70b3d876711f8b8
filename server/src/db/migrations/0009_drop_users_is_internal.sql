-- Contractor staff are operators from the enterprise directory (0008 deleted the internal accounts); nothing has set
-- is_internal since, so the flag and its checks go.
ALTER TABLE "users" DROP COLUMN "is_internal";
