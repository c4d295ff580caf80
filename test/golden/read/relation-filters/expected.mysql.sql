SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."orders" AS "t0" WHERE EXISTS (SELECT 1 FROM "svc_golden"."customers" AS "t1" WHERE ("t1"."id" = "t0"."customer_id" AND "t1"."country" = $1)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."order_id", "t0"."line") AS r FROM (SELECT "t0".* FROM "svc_golden"."order_items" AS "t0" WHERE EXISTS (SELECT 1 FROM "svc_golden"."products" AS "t1" WHERE ("t1"."id" = "t0"."product_id" AND EXISTS (SELECT 1 FROM "svc_golden"."categories" AS "t2" WHERE ("t2"."id" = "t1"."category_id" AND "t2"."name" = $1)))) ORDER BY "t0"."order_id" ASC, "t0"."line" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."order_id" ASC, "t0"."line" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM "svc_golden"."customers" AS "t0" WHERE EXISTS (SELECT 1 FROM "svc_golden"."orders" AS "t1" WHERE ("t1"."customer_id" = "t0"."id" AND "t1"."status" = $1)) LIMIT 2000;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."customers" AS "t0" WHERE (EXISTS (SELECT 1 FROM "svc_golden"."orders" AS "t1" WHERE "t1"."customer_id" = "t0"."id") AND (NOT COALESCE(EXISTS (SELECT 1 FROM "svc_golden"."orders" AS "t2" WHERE ("t2"."customer_id" = "t0"."id" AND (NOT COALESCE("t2"."status" = $1, FALSE)))), FALSE))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."customers" AS "t0" WHERE (NOT COALESCE(EXISTS (SELECT 1 FROM "svc_golden"."orders" AS "t1" WHERE ("t1"."customer_id" = "t0"."id" AND "t1"."status" = $1)), FALSE)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE EXISTS (SELECT 1 FROM "svc_golden"."tags" AS "t1" WHERE (EXISTS (SELECT 1 FROM "svc_golden"."product_tags" AS "t2" WHERE ("t2"."product_id" = "t0"."id" AND "t2"."tag_id" = "t1"."id")) AND "t1"."name" = $1)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;
