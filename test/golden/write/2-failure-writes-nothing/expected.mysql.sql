INSERT INTO "svc_golden"."tags" ("id", "name") VALUES ($1, $2) RETURNING "id", "name";

SELECT JSON_ARRAY("t0"."id") AS r FROM "svc_golden"."tags" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;
