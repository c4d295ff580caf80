SELECT JSON_ARRAY("t0"."id", "t0"."name", "t0"."email") AS r FROM (SELECT "t0".* FROM "svc_golden"."customers" AS "t0" WHERE "t0"."country" = $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY($1, "t0"."id", "t0"."name") AS r FROM "svc_golden"."customers" AS "t0" WHERE "t0"."country" = $2 LIMIT 2000;

SELECT JSON_ARRAY("t0"."id", "t0"."name") AS r FROM (SELECT "t0".* FROM "svc_golden"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 1) AS "t0" ORDER BY "t0"."id" ASC;
