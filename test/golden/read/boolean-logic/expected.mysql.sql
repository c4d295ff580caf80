SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE ("t0"."price" > $1 OR "t0"."sku" = $2) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE ("t0"."price" > $1 AND (NOT COALESCE("t0"."category_id" = $2, FALSE))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM "svc_golden"."orders" AS "t0" WHERE ("t0"."customer_id" = $1 AND "t0"."status" = $2) LIMIT 2000;
