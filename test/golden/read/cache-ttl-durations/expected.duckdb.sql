SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."categories" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json({'name': "t0"."name"}) AS result FROM "shop"."main"."customers" AS "t0" WHERE "t0"."id" = CAST($1 AS INTEGER) LIMIT 1;
