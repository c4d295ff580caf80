SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."orders" AS "t0" WHERE EXISTS (SELECT 1 FROM "public"."customers" AS "t1" WHERE ("t1"."id" = "t0"."customer_id" AND "t1"."country" = $1)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."order_id" AS c0, "t0"."line" AS c1 FROM (SELECT "t0".* FROM "public"."order_items" AS "t0" WHERE EXISTS (SELECT 1 FROM "public"."products" AS "t1" WHERE ("t1"."id" = "t0"."product_id" AND EXISTS (SELECT 1 FROM "public"."categories" AS "t2" WHERE ("t2"."id" = "t1"."category_id" AND "t2"."name" = $1)))) ORDER BY "t0"."order_id" ASC, "t0"."line" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."order_id" ASC, "t0"."line" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE EXISTS (SELECT 1 FROM "public"."orders" AS "t1" WHERE ("t1"."customer_id" = "t0"."id" AND "t1"."status" = $1)) LIMIT 2000) AS "t0";

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE (EXISTS (SELECT 1 FROM "public"."orders" AS "t1" WHERE "t1"."customer_id" = "t0"."id") AND (NOT COALESCE(EXISTS (SELECT 1 FROM "public"."orders" AS "t2" WHERE ("t2"."customer_id" = "t0"."id" AND (NOT COALESCE("t2"."status" = $1, FALSE)))), FALSE))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE (NOT COALESCE(EXISTS (SELECT 1 FROM "public"."orders" AS "t1" WHERE ("t1"."customer_id" = "t0"."id" AND "t1"."status" = $1)), FALSE)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0 FROM (SELECT "t0".* FROM "public"."products" AS "t0" WHERE EXISTS (SELECT 1 FROM "public"."tags" AS "t1" WHERE (EXISTS (SELECT 1 FROM "public"."product_tags" AS "t2" WHERE ("t2"."product_id" = "t0"."id" AND "t2"."tag_id" = "t1"."id")) AND "t1"."name" = $1)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;
