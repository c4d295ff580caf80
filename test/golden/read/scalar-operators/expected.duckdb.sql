SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."customers" AS "t0" WHERE "t0"."country" = CAST($1 AS VARCHAR) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."customers" AS "t0" WHERE "t0"."country" = ANY(CAST(CAST($1 AS JSON) AS VARCHAR[])) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'price': "t0"."price"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE ("t0"."price" > CAST($1 AS DOUBLE) AND "t0"."price" <= CAST($2 AS DOUBLE)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE "t0"."price" <> CAST($1 AS DOUBLE) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'sku': "t0"."sku"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE "t0"."sku" LIKE CAST($1 AS VARCHAR) ESCAPE '\' ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'name': "t0"."name"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."customers" AS "t0" WHERE "t0"."name" ILIKE CAST($1 AS VARCHAR) ESCAPE '\' LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE regexp_matches("t0"."name", CAST($1 AS VARCHAR)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'name': "t0"."name"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."customers" AS "t0" WHERE "t0"."email" IS NULL LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'note': "t0"."note"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."orders" AS "t0" WHERE "t0"."note" IS NOT NULL ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'sku': "t0"."sku"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE "t0"."in_stock" = CAST($1 AS BOOLEAN) LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'ordered_at': CASE WHEN "t0"."ordered_at" IS NULL THEN NULL WHEN microsecond("t0"."ordered_at") % 1000000 = 0 THEN strftime(timezone('UTC', "t0"."ordered_at"), '%Y-%m-%dT%H:%M:%S') || 'Z' ELSE strftime(timezone('UTC', "t0"."ordered_at"), '%Y-%m-%dT%H:%M:%S.%f') || 'Z' END} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."orders" AS "t0" WHERE ("t0"."ordered_at" >= CAST($1 AS TIMESTAMPTZ) AND "t0"."ordered_at" < CAST($2 AS TIMESTAMPTZ)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'ship_date': CAST("t0"."ship_date" AS VARCHAR)}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."orders" AS "t0" WHERE "t0"."ship_date" <= CAST($1 AS DATE) LIMIT 2000) AS "t0";
