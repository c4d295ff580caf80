SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'attributes': "t0"."attributes"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE list_contains(json_keys("t0"."attributes"), CAST($1 AS VARCHAR)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE (list_contains(json_keys("t0"."attributes"), CAST($1 AS VARCHAR)) AND list_contains(json_keys("t0"."attributes"), CAST($2 AS VARCHAR))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE json_contains("t0"."attributes", CAST($1 AS JSON)) LIMIT 2000) AS "t0";
