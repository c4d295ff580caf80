SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE ("t0"."price" > CAST($1 AS DOUBLE) OR "t0"."sku" = CAST($2 AS VARCHAR)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE ("t0"."price" > CAST($1 AS DOUBLE) AND (NOT COALESCE("t0"."category_id" = CAST($2 AS INTEGER), FALSE))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."orders" AS "t0" WHERE ("t0"."customer_id" = CAST($1 AS INTEGER) AND "t0"."status" = CAST($2 AS VARCHAR)) LIMIT 2000) AS "t0";
