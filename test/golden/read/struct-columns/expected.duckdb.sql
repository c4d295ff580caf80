SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'size': "t0"."size"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE TRY_CAST(json_extract_string("t0"."size", $1) AS DOUBLE) > CAST($2 AS DOUBLE) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE (TRY_CAST(json_extract_string("t0"."size", $1) AS DOUBLE) <= CAST($2 AS DOUBLE) AND json_extract_string("t0"."size", $3) = CAST($4 AS VARCHAR)) LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'size': "t0"."size"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" WHERE CAST(json_extract_string("t0"."size", $1) AS DATE) < CAST($2 AS DATE) LIMIT 2000) AS "t0";
