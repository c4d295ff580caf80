SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."customers" AS "t0" WHERE "t0"."country" = $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."customers" AS "t0" WHERE "t0"."country" IN (SELECT "v" FROM JSON_TABLE($1, '$[*]' COLUMNS ("v" LONGTEXT PATH '$')) AS "in_list") ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id", CAST("t0"."price" AS DOUBLE)) AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE ("t0"."price" > $1 AND "t0"."price" <= $2) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE "t0"."price" <> $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id", "t0"."sku") AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE "t0"."sku" LIKE $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."name") AS r FROM "svc_golden"."customers" AS "t0" WHERE LOWER("t0"."name") LIKE LOWER($1) LIMIT 2000;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE "t0"."name" REGEXP $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."name") AS r FROM "svc_golden"."customers" AS "t0" WHERE "t0"."email" IS NULL LIMIT 2000;

SELECT JSON_ARRAY("t0"."id", "t0"."note") AS r FROM (SELECT "t0".* FROM "svc_golden"."orders" AS "t0" WHERE "t0"."note" IS NOT NULL ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."sku") AS r FROM "svc_golden"."products" AS "t0" WHERE "t0"."in_stock" = CAST($1 AS SIGNED) LIMIT 2000;

SELECT JSON_ARRAY("t0"."id", IF(MICROSECOND("t0"."ordered_at") = 0, DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%s.%fZ'))) AS r FROM (SELECT "t0".* FROM "svc_golden"."orders" AS "t0" WHERE ("t0"."ordered_at" >= CAST($1 AS DATETIME(6)) AND "t0"."ordered_at" < CAST($2 AS DATETIME(6))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id", DATE_FORMAT("t0"."ship_date", '%Y-%m-%d')) AS r FROM "svc_golden"."orders" AS "t0" WHERE "t0"."ship_date" <= CAST($1 AS DATE) LIMIT 2000;
